// The planner through the real `openai` SDK against a local server speaking its wire
// format, with the real pipeline, stores and executors behind it.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../runtime/app.ts';
import { createLlmClient } from '../../runtime/llm/select.ts';
import { reply, startOpenAiServer, type ScriptedServer } from '../helpers/openai-server.ts';
import { createRecordingSink, says, startApp } from './harness.ts';
import { until } from './until.ts';

let server: ScriptedServer;
let app: App | undefined;
const home = process.env.HOME ?? '';

beforeEach(async () => {
  server = await startOpenAiServer();
});
afterEach(async () => {
  await app?.close();
  app = undefined;
  await server.close();
});

function openai(options: { timeoutMs?: number; maxRetries?: number } = {}) {
  return createLlmClient(
    {
      provider: 'openai',
      baseUrl: `${server.url}/v1`,
      timeoutMs: options.timeoutMs ?? 5_000,
      maxRetries: options.maxRetries ?? 0,
    },
    { OPENAI_API_KEY: 'sk-test' },
  );
}

type Body = {
  messages: { role: string; content: string | null; tool_call_id?: string }[];
  tools?: { function: { name: string } }[];
};
const bodyOf = (index: number) => server.requests[index]?.body as Body;
const lastToolResult = (index: number) =>
  bodyOf(index)
    .messages.filter((message) => message.role === 'tool')
    .at(-1)?.content ?? '';

describe('planner over the OpenAI wire format', () => {
  it('reads a file, then answers with its content (two model calls)', async () => {
    await writeFile(join(home, 'note.txt'), 'the secret word is basil\n');
    app = await startApp(openai());
    server.script(
      reply.call('fs_read', { path: '~/note.txt' }),
      reply.text('The note says: the secret word is basil.'),
    );
    const sink = createRecordingSink();
    await app.service.handleMessage(says('what does ~/note.txt say?'), sink);
    expect(sink.texts()).toEqual(['The note says: the secret word is basil.']);
    expect(server.requests).toHaveLength(2);
    expect(bodyOf(0).tools?.map((tool) => tool.function.name)).toContain('fs_read');
    const observation = lastToolResult(1);
    expect(observation).toContain('the secret word is basil');
    expect(observation).toContain('untrusted data');
    expect(
      sink.entries.some(
        (entry) => entry.kind === 'step' && entry.line.startsWith('fs_read ~/note.txt -> allow'),
      ),
    ).toBe(true);
    expect(server.unexpected).toEqual([]);
  });

  it('gives the guard rejection of rm -rf ~ back to the model, which then answers; nothing runs', async () => {
    await mkdir(join(home, 'keep'), { recursive: true });
    await writeFile(join(home, 'keep', 'file.txt'), 'still here');
    app = await startApp(openai());
    server.script(
      reply.call('shell_exec', { command: 'rm -rf ~' }),
      reply.text('I will not delete your home directory.'),
    );
    const sink = createRecordingSink();
    await app.service.handleMessage(says('clean up everything'), sink);
    const observation = JSON.parse(lastToolResult(1)) as {
      status: string;
      stage: string;
      reason: string;
    };
    expect(observation).toMatchObject({ status: 'denied', stage: 'guard' });
    expect(sink.texts()).toEqual(['I will not delete your home directory.']);
    expect(
      sink.entries.some((entry) => entry.kind === 'card' && entry.card.kind === 'refusal'),
    ).toBe(true);
    expect(sink.approvals()).toEqual([]);
    expect(existsSync(join(home, 'keep', 'file.txt'))).toBe(true);
  });

  it('turns malformed arguments and an unknown tool into error observations the model can correct', async () => {
    await writeFile(join(home, 'b.txt'), 'bee');
    app = await startApp(openai());
    server.script(
      reply.call('fs_read', '{"path": "~/b.txt"'),
      reply.call('__proto__', { path: '~/b.txt' }),
      reply.call('fs_read', { path: '~/b.txt' }),
      reply.text('It says bee.'),
    );
    const sink = createRecordingSink();
    await app.service.handleMessage(says('read b'), sink);
    expect(lastToolResult(1)).toContain('not valid JSON');
    expect(lastToolResult(2)).toContain('There is no tool named \\"__proto__\\"');
    expect(lastToolResult(3)).toContain('bee');
    expect(sink.texts()).toEqual(['It says bee.']);
  });

  it('retries a provider 500 and then succeeds', async () => {
    app = await startApp(openai({ maxRetries: 2 }));
    server.script(reply.error(500, 'overloaded'), reply.text('hello after a retry'));
    const sink = createRecordingSink();
    await app.service.handleMessage(says('hi'), sink);
    expect(sink.texts()).toEqual(['hello after a retry']);
    expect(server.requests).toHaveLength(2);
  });

  it('reports a provider that never answers in one plain sentence, and keeps serving', async () => {
    app = await startApp(openai({ timeoutMs: 200, maxRetries: 1 }));
    server.script(reply.hang(), reply.hang(), reply.text('back again'));
    const sink = createRecordingSink();
    await app.service.handleMessage(says('hi'), sink);
    expect(sink.texts()).toEqual([
      'I could not reach the model provider; check the network or the provider settings and try again.',
    ]);
    expect(server.requests).toHaveLength(2);
    await app.service.handleMessage(says('hi again'), sink);
    expect(sink.texts().at(-1)).toBe('back again');
  });

  it('cancels a turn waiting on the model with /stop', async () => {
    app = await startApp(openai());
    server.script(reply.hang());
    const sink = createRecordingSink();
    const turn = app.service.handleMessage(says('think hard'), sink);
    await until(() => server.requests.length === 1);
    await app.service.handleMessage(says('/stop'), sink);
    await turn;
    expect(sink.texts()).toEqual(['Stopped: nothing more will run for that request.']);
  });

  it('cancellation reaches a running executor', async () => {
    app = await startApp(openai());
    server.script(
      reply.call('shell_exec', { command: 'touch ~/started; sleep 20; touch ~/slept' }),
    );
    const sink = createRecordingSink();
    await app.service.handleMessage(says('sleep a while'), sink);
    const [card] = sink.approvals();
    expect(card?.card.kind).toBe('approval');
    const resumed = app.service.resolveApproval(
      { approvalId: card?.approvalId ?? '', presser: 'local:tester', answer: 'once' },
      sink,
    );
    await until(() => existsSync(join(home, 'started')));
    await app.service.handleMessage(says('/stop'), sink);
    expect(await resumed).toBe('resolved');
    expect(sink.texts().at(-1)).toBe('Stopped: nothing more will run for that request.');
    expect(existsSync(join(home, 'slept'))).toBe(false);
  });
});
