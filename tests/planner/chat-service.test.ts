// The chat service with the real offline provider and the real pipeline: approvals that
// re-enter the turn, refusals, commands, per-chat ordering, expiry.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../runtime/app.ts';
import { createOfflineClient } from '../../runtime/llm/offline.ts';
import { createScriptedModel, textAnswer, toolCalls } from '../helpers/scripted-model.ts';
import { pressNotice } from '../../runtime/approvals/render.ts';
import { createRecordingSink, freshStateHome, says, startApp } from './harness.ts';
import { until } from './until.ts';

const home = process.env.HOME ?? '';
let app: App | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('chat service approvals', () => {
  it('asks before a write, runs it once approved, and answers with the result', async () => {
    app = await startApp(createOfflineClient());
    const sink = createRecordingSink();
    await app.service.handleMessage(says('/write ~/once.txt hello'), sink);
    const [pending] = sink.approvals();
    expect(pending?.card.executor).toBe('fs_write');
    expect(existsSync(join(home, 'once.txt'))).toBe(false);
    const outcome = await app.service.resolveApproval(
      { approvalId: pending?.approvalId ?? '', presser: 'local:tester', answer: 'once' },
      sink,
    );
    expect(outcome).toBe('resolved');
    expect(readFileSync(join(home, 'once.txt'), 'utf8')).toBe('hello');
    expect(
      sink.entries.some((entry) => entry.kind === 'update' && entry.text.includes('Allowed once')),
    ).toBe(true);
    expect(sink.texts()).toHaveLength(1);
    // Single use: a replayed press changes nothing.
    expect(
      await app.service.resolveApproval(
        { approvalId: pending?.approvalId ?? '', presser: 'local:tester', answer: 'once' },
        sink,
      ),
    ).toBe('already_resolved');
  });

  it('edits a card through the ref the press carries when the store has none yet', async () => {
    app = await startApp(createOfflineClient());
    const recorded = createRecordingSink();
    // A card posted late (by a channel's outbox): its ref has not reached the store.
    const sink = {
      ...recorded,
      sendCard: async (...args: Parameters<typeof recorded.sendCard>) => {
        await recorded.sendCard(...args);
        return null;
      },
    };
    await app.service.handleMessage(says('/write ~/late-ref.txt hi'), sink);
    const [pending] = recorded.approvals();
    await app.service.resolveApproval(
      {
        approvalId: pending?.approvalId ?? '',
        presser: 'local:tester',
        answer: 'once',
        cardRef: { chatId: 'c1', messageId: 77 },
      },
      sink,
    );
    expect(recorded.entries).toContainEqual(
      expect.objectContaining({ kind: 'update', ref: { chatId: 'c1', messageId: 77 } }),
    );
  });

  it('answers a press it cannot record (the state dir refuses) as unrecorded, and runs nothing', async () => {
    const stateHome = freshStateHome();
    app = await startApp(createOfflineClient(), {}, stateHome);
    const sink = createRecordingSink();
    await app.service.handleMessage(says('/write ~/unrecorded.txt hi'), sink);
    const [pending] = sink.approvals();
    const id = pending?.approvalId ?? '';
    // The claim is a rename to <id>.taken: a directory in its place makes it fail, as a
    // read-only or full state dir would (root ignores permissions, so chmod cannot show it).
    mkdirSync(join(stateHome, 'custode', 'approvals', `${id}.taken`, 'x'), { recursive: true });
    const outcome = await app.service.resolveApproval(
      { approvalId: id, presser: 'local:tester', answer: 'once' },
      sink,
    );
    expect(outcome).toBe('unrecorded');
    expect(pressNotice(outcome, 'once')).toBe(
      'Your answer could not be recorded (Custode cannot write its state dir), so nothing was run. The daemon log has the cause.',
    );
    expect(existsSync(join(home, 'unrecorded.txt'))).toBe(false);
    expect((await app.approvals.list()).map((p) => p.id)).toEqual([id]);
  });

  it('a declined card becomes an observation and nothing is written', async () => {
    app = await startApp(createOfflineClient());
    const sink = createRecordingSink();
    await app.service.handleMessage(says('/write ~/declined.txt no'), sink);
    const [pending] = sink.approvals();
    expect(
      await app.service.resolveApproval(
        { approvalId: pending?.approvalId ?? '', presser: 'local:tester', answer: 'deny' },
        sink,
      ),
    ).toBe('resolved');
    expect(existsSync(join(home, 'declined.txt'))).toBe(false);
    expect(sink.texts().at(-1)).toBe('Not done: the person declined');
  });

  it('only the sender (or an approver) may answer a card', async () => {
    app = await startApp(createOfflineClient());
    const sink = createRecordingSink();
    await app.service.handleMessage(says('/write ~/theirs.txt x'), sink);
    const [pending] = sink.approvals();
    expect(
      await app.service.resolveApproval(
        { approvalId: pending?.approvalId ?? '', presser: 'local:someone-else', answer: 'once' },
        sink,
      ),
    ).toBe('not_yours');
    expect(existsSync(join(home, 'theirs.txt'))).toBe(false);
    expect(
      await app.service.resolveApproval(
        { approvalId: 'no-such-card', presser: 'local:tester', answer: 'once' },
        sink,
      ),
    ).toBe('unknown');
  });

  it("in a shared chat, another person's /stop leaves the card to its owner", async () => {
    app = await startApp(createOfflineClient());
    const sink = createRecordingSink();
    await app.service.handleMessage(says('/write ~/group.txt mine', 'g', 'local:alice'), sink);
    await app.service.handleMessage(says('/stop', 'g', 'local:bob'), sink);
    expect(sink.texts('g')).toEqual(['Nothing is running.']);
    const [pending] = sink.approvals();
    const press = {
      approvalId: pending?.approvalId ?? '',
      presser: 'local:alice',
      answer: 'once' as const,
    };
    expect(await app.service.resolveApproval(press, sink)).toBe('resolved');
    expect(readFileSync(join(home, 'group.txt'), 'utf8')).toBe('mine');
  });

  it('"always" with no safe narrow rule runs once, and the card does not claim a rule', async () => {
    app = await startApp(createOfflineClient());
    const sink = createRecordingSink();
    await app.service.handleMessage(says('/write ~/top-level.txt x'), sink);
    const [pending] = sink.approvals();
    const press = {
      approvalId: pending?.approvalId ?? '',
      presser: 'local:tester',
      answer: 'always' as const,
    };
    expect(await app.service.resolveApproval(press, sink)).toBe('resolved');
    expect(readFileSync(join(home, 'top-level.txt'), 'utf8')).toBe('x');
    const updates = sink.entries.filter((entry) => entry.kind === 'update');
    expect(updates.map((entry) => entry.text).join('\n')).toContain('Allowed once by local:tester');
    expect(updates.map((entry) => entry.text).join('\n')).not.toContain('rule was saved');
    await app.service.handleMessage(says('/rules'), sink);
    expect(sink.texts().at(-1)).toBe(
      'You have no always-allow rules. Answer "always" on a card to add one.',
    );
  });

  it('"always" saves a narrow rule, tells the person, and /rules lists it', async () => {
    // A rule scoped to the home directory itself would be too broad: write one level down.
    mkdirSync(join(home, 'notes'), { recursive: true });
    // An overwrite: a new file in an existing folder runs as the workspace tier's, with no card.
    writeFileSync(join(home, 'notes', 'a.txt'), 'old');
    app = await startApp(createOfflineClient());
    const sink = createRecordingSink();
    await app.service.handleMessage(says('/write ~/notes/a.txt one'), sink);
    const [pending] = sink.approvals();
    await app.service.resolveApproval(
      { approvalId: pending?.approvalId ?? '', presser: 'local:tester', answer: 'always' },
      sink,
    );
    expect(sink.texts().some((text) => text.startsWith('Saved an always-allow rule'))).toBe(true);
    expect(readFileSync(join(home, 'notes', 'a.txt'), 'utf8')).toBe('one');
    await app.service.handleMessage(says('/rules'), sink);
    expect(sink.texts().at(-1)).toContain('1. ');
    await app.service.handleMessage(says('/rules rm 1'), sink);
    expect(sink.texts().at(-1)).toBe('Removed rule 1.');
  });

  it('an expired card resolves as denied and the turn goes on', async () => {
    app = await startApp(createOfflineClient());
    const sink = createRecordingSink();
    await app.service.handleMessage(says('/write ~/late.txt x'), sink);
    expect(await app.service.expireDue(new Date())).toBe(0);
    expect(await app.service.expireDue(new Date(Date.now() + 11 * 60_000))).toBe(1);
    expect(
      sink.entries.some((entry) => entry.kind === 'update' && entry.text.includes('Expired')),
    ).toBe(true);
    expect(sink.texts().at(-1)).toContain('expired');
    expect(existsSync(join(home, 'late.txt'))).toBe(false);
  });

  it('answers a message sent while a card waits with a reminder; /stop cancels the card', async () => {
    app = await startApp(createOfflineClient());
    const sink = createRecordingSink();
    await app.service.handleMessage(says('/write ~/pending.txt x'), sink);
    await app.service.handleMessage(says('/ls'), sink);
    expect(sink.texts().at(-1)).toContain('waiting for your answer');
    await app.service.handleMessage(says('/stop'), sink);
    expect(sink.texts().at(-1)).toBe('Stopped: the pending action was not run.');
    const [pending] = sink.approvals();
    expect(
      await app.service.resolveApproval(
        { approvalId: pending?.approvalId ?? '', presser: 'local:tester', answer: 'once' },
        sink,
      ),
    ).toBe('already_resolved');
    expect(existsSync(join(home, 'pending.txt'))).toBe(false);
  });
});

describe('chat service turns', () => {
  it('serialises turns in one chat and runs chats concurrently', async () => {
    const model = createScriptedModel();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    model.script(async () => {
      await gate;
      return textAnswer('first');
    });
    model.script(textAnswer('other chat'), textAnswer('second'));
    app = await startApp(model);
    const sink = createRecordingSink();
    const first = app.service.handleMessage(says('one', 'a'), sink);
    const second = app.service.handleMessage(says('two', 'a'), sink);
    // Chat a's first turn must hold the gated answer before chat b asks the model.
    await until(() => model.requests.length === 1);
    await app.service.handleMessage(says('elsewhere', 'b'), sink);
    expect(sink.texts()).toEqual(['other chat']);
    release();
    await Promise.all([first, second]);
    expect(sink.texts('a')).toEqual(['first', 'second']);
  });

  it('stops the turn after three refusals in a row and says why', async () => {
    const model = createScriptedModel();
    const forbidden = { name: 'fs_read', args: { path: '~/.ssh/id_rsa' } };
    model.script(toolCalls(forbidden), toolCalls(forbidden), toolCalls(forbidden));
    app = await startApp(model);
    const sink = createRecordingSink();
    await app.service.handleMessage(says('show my key'), sink);
    expect(sink.texts()).toEqual([
      'I stopped: 3 proposed actions in a row were refused. Rephrase the request or do it another way.',
    ]);
    expect(model.pending()).toBe(0);
    expect(model.unexpected).toEqual([]);
    expect(model.requests).toHaveLength(3);
  });

  it('tells the person when its own state breaks, and loses no other chat', async () => {
    const model = createScriptedModel();
    model.script(textAnswer('fine here'));
    app = await startApp(model);
    // A directory where the chat's history file belongs: reading it fails.
    const key = Buffer.from('local:broken').toString('base64url');
    mkdirSync(join(app.env.XDG_STATE_HOME ?? '', 'custode', 'history', `${key}.json`), {
      recursive: true,
    });
    const sink = createRecordingSink();
    await app.service.handleMessage(says('hi', 'broken'), sink);
    expect(sink.texts('broken')).toEqual([
      'Something went wrong on my side and the request stopped; the daemon log has the details.',
    ]);
    await app.service.handleMessage(says('hi', 'fine'), sink);
    expect(sink.texts('fine')).toEqual(['fine here']);
  });

  it('handles /help and /reset before the model', async () => {
    const model = createScriptedModel();
    app = await startApp(model);
    const sink = createRecordingSink();
    await app.service.handleMessage(says('/help'), sink);
    await app.service.handleMessage(says('/reset'), sink);
    expect(sink.texts()[0]).toContain('/rules rm N');
    expect(sink.texts()[0]).toContain(
      '/run, /read, /ls, /write and /fetch\nare not commands here: they go to the model as text',
    );
    expect(sink.texts()[1]).toContain('History cleared');
    expect(model.requests).toEqual([]);
  });
});
