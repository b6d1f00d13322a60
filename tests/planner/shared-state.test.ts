// A terminal chat beside the daemon: two apps (two chat services, two pipelines) over one
// state dir see each other's cards, always-allow rules and chat histories at once, with no
// stale copy in memory.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../runtime/app.ts';
import { createOfflineClient } from '../../runtime/llm/offline.ts';
import { createHistoryStore } from '../../runtime/planner/history.ts';
import { pino } from 'pino';
import { createRecordingSink, freshStateHome, says, startApp } from './harness.ts';

const home = process.env.HOME ?? '';
const apps: App[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

let stateHome = '';

async function twoApps(): Promise<[App, App]> {
  stateHome = freshStateHome();
  const daemon = await startApp(createOfflineClient(), {}, stateHome);
  const chat = await startApp(createOfflineClient(), {}, stateHome);
  apps.push(daemon, chat);
  return [daemon, chat];
}

describe('two processes on one state dir', () => {
  it('share the card a chat waits on: the other one reminds, resolves it, and frees the chat', async () => {
    const [daemon, chat] = await twoApps();
    const sink = createRecordingSink();
    await daemon.service.handleMessage(says('/write ~/shared-card.txt one'), sink);
    const [card] = sink.approvals();
    expect(card).toBeDefined();

    await chat.service.handleMessage(says('/write ~/other.txt two'), sink);
    expect(sink.texts().at(-1)).toContain('A card above is waiting for your answer');

    await chat.service.resolveApproval(
      { approvalId: card?.approvalId ?? '', presser: 'local:tester', answer: 'once' },
      sink,
    );
    expect(await readFile(join(home, 'shared-card.txt'), 'utf8')).toBe('one');
    await daemon.service.handleMessage(says('/write ~/after.txt three'), sink);
    expect(sink.texts().at(-1)).not.toContain('A card above is waiting');
    expect(sink.approvals()).toHaveLength(2);
  });

  it('share always-allow rules: one saved or removed in one is in force in the other at once', async () => {
    const [daemon, chat] = await twoApps();
    await mkdir(join(home, 'rules-shared'));
    // Overwrites ask (creating a new file may not).
    for (const name of ['a.txt', 'b.txt', 'c.txt'])
      await writeFile(join(home, 'rules-shared', name), 'old');
    const sink = createRecordingSink();
    await chat.service.handleMessage(says('/write ~/rules-shared/a.txt one'), sink);
    const [card] = sink.approvals();
    await chat.service.resolveApproval(
      { approvalId: card?.approvalId ?? '', presser: 'local:tester', answer: 'always' },
      sink,
    );
    expect(sink.texts()).toContainEqual(expect.stringContaining('Saved an always-allow rule'));

    await daemon.service.handleMessage(says('/write ~/rules-shared/b.txt two'), sink);
    expect(await readFile(join(home, 'rules-shared', 'b.txt'), 'utf8')).toBe('two');
    expect(sink.approvals()).toHaveLength(1);

    await daemon.service.handleMessage(says('/rules rm 1'), sink);
    await chat.service.handleMessage(says('/write ~/rules-shared/c.txt three'), sink);
    expect(sink.approvals()).toHaveLength(2);
  });

  it('keep both turns of one chat in its history when each process ran one', async () => {
    const [daemon, chat] = await twoApps();
    const sink = createRecordingSink();
    await Promise.all([
      daemon.service.handleMessage(says('/ls ~'), sink),
      chat.service.handleMessage(says('/read ~/nothing-here.txt'), sink),
    ]);
    const history = createHistoryStore(
      join(stateHome, 'custode', 'history'),
      { maxMessages: 100, maxChars: 100_000 },
      pino({ level: 'silent' }),
    );
    const asked = (await history.load('local:c1')).flatMap((m) =>
      m.role === 'user' ? [m.content] : [],
    );
    expect(asked.sort()).toEqual(['/ls ~', '/read ~/nothing-here.txt']);
  });
});
