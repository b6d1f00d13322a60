// History per chat: bounded, persisted atomically, kept across a restart, cleared by /reset.
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../runtime/app.ts';
import type { ChatMessage } from '../../runtime/llm/client.ts';
import { createLogger } from '../../runtime/log/logger.ts';
import { stateDir } from '../../runtime/paths.ts';
import { boundHistory, createHistoryStore } from '../../runtime/planner/history.ts';
import { createScriptedModel, textAnswer } from '../helpers/scripted-model.ts';
import { createRecordingSink, freshStateHome, says, startApp } from './harness.ts';

let app: App | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const contents = (messages: readonly ChatMessage[]) =>
  messages.map((message) => `${message.role}:${message.content}`);

describe('history', () => {
  it('survives a restart of the planner and is cleared by /reset', async () => {
    const first = createScriptedModel();
    first.script(textAnswer('Nice to meet you, Ada.'));
    const stateHome = freshStateHome();
    app = await startApp(first, {}, stateHome);
    await app.service.handleMessage(says('my name is Ada'), createRecordingSink());
    await app.close();

    const second = createScriptedModel();
    second.script(textAnswer('You are Ada.'), textAnswer('I do not know.'));
    app = await startApp(second, {}, stateHome);
    const sink = createRecordingSink();
    await app.service.handleMessage(says('who am I?'), sink);
    expect(contents(second.requests[0]?.messages.slice(1) ?? [])).toEqual([
      'user:my name is Ada',
      'assistant:Nice to meet you, Ada.',
      'user:who am I?',
    ]);
    await app.service.handleMessage(says('/reset'), sink);
    await app.service.handleMessage(says('who am I?'), sink);
    expect(contents(second.requests[1]?.messages.slice(1) ?? [])).toEqual(['user:who am I?']);
  });

  it('keeps the newest messages within the limits and never starts on a tool result', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'a' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: '1', name: 'fs_list', argumentsText: '{}' }],
      },
      { role: 'tool', toolCallId: '1', name: 'fs_list', content: 'x/' },
      { role: 'assistant', content: 'done a' },
      { role: 'user', content: 'b' },
      { role: 'assistant', content: 'done b' },
    ];
    expect(contents(boundHistory(messages, { maxMessages: 4, maxChars: 10_000 }))).toEqual([
      'user:b',
      'assistant:done b',
    ]);
    expect(boundHistory(messages, { maxMessages: 40, maxChars: 10_000 })).toHaveLength(6);
    expect(contents(boundHistory(messages, { maxMessages: 40, maxChars: 7 }))).toEqual([
      'user:b',
      'assistant:done b',
    ]);
  });

  it('moves a corrupt history file aside and starts fresh', async () => {
    const dir = join(stateDir(), 'history-corrupt');
    const store = createHistoryStore(dir, { maxMessages: 10, maxChars: 1_000 }, createLogger());
    await store.save('local:x', [{ role: 'user', content: 'hi' }]);
    const [file] = await readdir(dir);
    await writeFile(join(dir, file ?? ''), '{"v":1,"messages":[{"role":"system"');
    expect(await store.load('local:x')).toEqual([]);
    expect((await readdir(dir)).some((name) => name.includes('.corrupt-'))).toBe(true);
  });
});
