// Interrupted turns: several calls in one response around a card, a resume after a
// restart of the whole app, and unusable output the model gets to correct.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../runtime/app.ts';
import { createOfflineClient } from '../../runtime/llm/offline.ts';
import { createScriptedModel, textAnswer, toolCalls } from '../helpers/scripted-model.ts';
import { createRecordingSink, freshStateHome, says, startApp } from './harness.ts';

const home = process.env.HOME ?? '';
let app: App | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('resumable turns', () => {
  it('processes several calls of one response in order, pausing on the one that asks', async () => {
    await writeFile(join(home, 'in.txt'), 'input');
    const model = createScriptedModel();
    model.script(
      toolCalls(
        { name: 'fs_read', args: { path: '~/in.txt' } },
        { name: 'fs_write', args: { path: '~/out.txt', content: 'output' } },
        { name: 'fs_read', args: { path: '~/out.txt' } },
      ),
      textAnswer('copied'),
    );
    app = await startApp(model);
    const sink = createRecordingSink();
    await app.service.handleMessage(says('copy in to out'), sink);
    expect(model.requests).toHaveLength(1);
    const [card] = sink.approvals();
    expect(card?.card.executor).toBe('fs_write');
    await app.service.resolveApproval(
      { approvalId: card?.approvalId ?? '', presser: 'local:tester', answer: 'once' },
      sink,
    );
    expect(sink.texts()).toEqual(['copied']);
    const results = model.requests[1]?.messages.filter((message) => message.role === 'tool') ?? [];
    expect(results.map((message) => message.role === 'tool' && message.name)).toEqual([
      'fs_read',
      'fs_write',
      'fs_read',
    ]);
    expect(results[2]?.content).toContain('output');
    const steps = sink.entries.flatMap((entry) => (entry.kind === 'step' ? [entry.line] : []));
    expect(steps).toEqual([
      'fs_read ~/in.txt -> allow',
      'fs_write ~/out.txt -> allow',
      'fs_read ~/out.txt -> allow',
    ]);
  });

  it('resumes a parked turn after the whole app restarted', async () => {
    const stateHome = freshStateHome();
    app = await startApp(createOfflineClient(), {}, stateHome);
    const before = createRecordingSink();
    await app.service.handleMessage(says('/write ~/after-restart.txt survived'), before);
    const [card] = before.approvals();
    await app.close();

    app = await startApp(createOfflineClient(), {}, stateHome);
    const after = createRecordingSink();
    // The chat still waits on its card after the restart.
    await app.service.handleMessage(says('/ls'), after);
    expect(after.texts()).toEqual([
      'A card above is waiting for your answer; answer it first (or send /stop to cancel it).',
    ]);
    const outcome = await app.service.resolveApproval(
      { approvalId: card?.approvalId ?? '', presser: 'local:tester', answer: 'once' },
      after,
    );
    expect(outcome).toBe('resolved');
    expect(readFileSync(join(home, 'after-restart.txt'), 'utf8')).toBe('survived');
    expect(after.texts()).toHaveLength(2);
  });

  it('answers an empty model response with a correction request, then goes on', async () => {
    const model = createScriptedModel();
    model.script(textAnswer(''), textAnswer('here I am'));
    app = await startApp(model);
    const sink = createRecordingSink();
    await app.service.handleMessage(says('hello?'), sink);
    expect(sink.texts()).toEqual(['here I am']);
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({
      role: 'user',
      content: expect.stringContaining('empty') as unknown,
    });
  });

  it('stops after max_steps model calls and says so', async () => {
    const model = createScriptedModel();
    const list = { name: 'fs_list', args: { path: '~' } };
    model.script(toolCalls(list), toolCalls(list));
    app = await startApp(model, { planner: { max_steps: 2 } });
    const sink = createRecordingSink();
    await app.service.handleMessage(says('list forever'), sink);
    expect(sink.texts()).toEqual([
      'I stopped after 2 steps without finishing. Ask again with a narrower request.',
    ]);
    expect(model.unexpected).toEqual([]);
  });
});
