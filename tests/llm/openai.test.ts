import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NetworkError, ProviderError } from '../../runtime/errors.ts';
import { createOpenAiClient } from '../../runtime/llm/openai.ts';
import { withRetry } from '../../runtime/llm/retry.ts';
import {
  reply,
  startOpenAiServer,
  type ScriptedReply,
  type ScriptedServer,
} from '../helpers/openai-server.ts';

let server: ScriptedServer;
beforeEach(async () => {
  server = await startOpenAiServer();
});
afterEach(async () => {
  await server.close();
});

const client = (timeoutMs = 5_000) =>
  createOpenAiClient({
    apiKey: 'sk-test',
    baseUrl: `${server.url}/v1`,
    model: 'gpt-test',
    timeoutMs,
  });

describe('openai client', () => {
  it('sends messages and tools in the wire format and reads tool calls back', async () => {
    server.script(reply.call('fs_read', { path: '~/a.txt' }, 'call_a'));
    const response = await client().chat({
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'read a' },
      ],
      tools: [
        {
          name: 'fs_read',
          description: 'Read a file.',
          parameters: { type: 'object', properties: { path: { type: 'string' } } },
        },
      ],
    });
    expect(response.toolCalls).toEqual([
      { id: 'call_a', name: 'fs_read', argumentsText: '{"path":"~/a.txt"}' },
    ]);
    const body = server.requests[0]?.body as {
      model: string;
      messages: unknown[];
      tools: { function: { name: string } }[];
    };
    expect(body.model).toBe('gpt-test');
    expect(body.tools[0]?.function.name).toBe('fs_read');
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-test');
  });

  it('replays assistant tool calls and tool results with their ids', async () => {
    server.script(reply.text('done'));
    const response = await client().chat({
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'c1', name: 'fs_list', argumentsText: '{}' }],
        },
        { role: 'tool', toolCallId: 'c1', name: 'fs_list', content: 'a/' },
      ],
    });
    expect(response).toEqual({ text: 'done', toolCalls: [] });
    const body = server.requests[0]?.body as { messages: Record<string, unknown>[] };
    expect(body.messages[1]).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'fs_list', arguments: '{}' } }],
    });
    expect(body.messages[2]).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'a/' });
  });

  it('maps an API error to ProviderError with its status, without SDK retries', async () => {
    server.script(reply.error(500, 'boom'));
    const error = await client()
      .chat({ messages: [{ role: 'user', content: 'x' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).status).toBe(500);
    expect(server.requests).toHaveLength(1);
  });

  it('maps a timeout to NetworkError', async () => {
    server.script(reply.hang());
    await expect(
      client(200).chat({ messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toBeInstanceOf(NetworkError);
  });

  it('maps a refused connection to NetworkError', async () => {
    await server.close();
    await expect(
      client().chat({ messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toBeInstanceOf(NetworkError);
  });

  it('retries a 500 then succeeds through withRetry; a 400 is not retried', async () => {
    server.script(reply.error(500), reply.text('second time lucky'));
    const retried = withRetry(client(), { maxRetries: 2, minTimeoutMs: 1, maxTimeoutMs: 2 });
    expect((await retried.chat({ messages: [{ role: 'user', content: 'x' }] })).text).toBe(
      'second time lucky',
    );
    expect(server.requests).toHaveLength(2);
    server.script(reply.error(400, 'bad request'));
    await expect(
      retried.chat({ messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({ status: 400 });
    expect(server.requests).toHaveLength(3);
  });

  it('stops at once when the caller aborts, even with retries left', async () => {
    server.script(reply.hang());
    const controller = new AbortController();
    const retried = withRetry(client(), { maxRetries: 5, minTimeoutMs: 1 });
    const pending = retried.chat({
      messages: [{ role: 'user', content: 'x' }],
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.requests).toHaveLength(1);
  });

  /** Answers with `replies` in order, noting when each request arrived. */
  function timed(...replies: ScriptedReply[]): number[] {
    const arrivals: number[] = [];
    server.fallback(() => {
      arrivals.push(performance.now());
      return replies.shift() ?? reply.error(500, 'nothing left');
    });
    return arrivals;
  }

  it('waits as long as a 429 says (Retry-After) before trying again', async () => {
    const at = timed(reply.error(429, 'slow down', { 'retry-after': '1' }), reply.text('after'));
    const retried = withRetry(client(), { maxRetries: 2, minTimeoutMs: 1, maxTimeoutMs: 2 });
    expect((await retried.chat({ messages: [{ role: 'user', content: 'x' }] })).text).toBe('after');
    // Timers count whole milliseconds from a cached loop time: a wait may end ~1 ms early.
    expect((at[1] ?? 0) - (at[0] ?? 0)).toBeGreaterThanOrEqual(995);
  });

  it('waits no longer than its cap when Retry-After asks for more (retry-after-ms, an HTTP date)', async () => {
    const later = new Date(Date.now() + 30_000).toUTCString();
    const at = timed(
      reply.error(503, 'busy', { 'retry-after': later }),
      reply.error(429, 'busy', { 'retry-after-ms': '30000' }),
      reply.text('capped'),
    );
    const retried = withRetry(client(), {
      maxRetries: 2,
      minTimeoutMs: 1,
      maxTimeoutMs: 2,
      maxRetryAfterMs: 300,
    });
    expect((await retried.chat({ messages: [{ role: 'user', content: 'x' }] })).text).toBe(
      'capped',
    );
    expect(at).toHaveLength(3);
    for (const [before, after] of [
      [at[0], at[1]],
      [at[1], at[2]],
    ]) {
      expect((after ?? 0) - (before ?? 0)).toBeGreaterThanOrEqual(295);
      expect((after ?? 0) - (before ?? 0)).toBeLessThan(20_000);
    }
  });
});
