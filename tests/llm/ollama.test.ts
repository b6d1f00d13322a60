import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NetworkError, ProviderError } from '../../runtime/errors.ts';
import { createOllamaClient } from '../../runtime/llm/ollama.ts';
import { withRetry } from '../../runtime/llm/retry.ts';
import {
  reply,
  startOllamaServer,
  type ScriptedReply,
  type ScriptedServer,
} from '../helpers/ollama-server.ts';

let server: ScriptedServer;
beforeEach(async () => {
  server = await startOllamaServer();
});
afterEach(async () => {
  await server.close();
});

const client = (timeoutMs = 5_000) =>
  createOllamaClient({ host: server.url, model: 'llama-test', timeoutMs });

describe('ollama client', () => {
  it('generates ids and serialises object arguments', async () => {
    server.script(
      reply.calls(
        { name: 'fs_read', arguments: { path: 'a' } },
        { name: 'fs_list', arguments: { path: '.' } },
      ),
    );
    const response = await client().chat({
      messages: [{ role: 'user', content: 'read' }],
      tools: [{ name: 'fs_read', description: 'Read.', parameters: { type: 'object' } }],
    });
    expect(response.toolCalls.map((call) => [call.name, call.argumentsText])).toEqual([
      ['fs_read', '{"path":"a"}'],
      ['fs_list', '{"path":"."}'],
    ]);
    const [first, second] = response.toolCalls;
    expect(first?.id).toMatch(/^call_/);
    expect(first?.id).not.toBe(second?.id);
    const body = server.requests[0]?.body as { model: string; stream: boolean; tools: unknown[] };
    expect(body).toMatchObject({ model: 'llama-test', stream: false });
    expect(body.tools).toHaveLength(1);
  });

  it('replays tool calls as objects and tool results with the tool name', async () => {
    server.script(reply.text('ok'));
    await client().chat({
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'x', name: 'fs_list', argumentsText: '{"path":"."}' }],
        },
        { role: 'tool', toolCallId: 'x', name: 'fs_list', content: 'a/' },
      ],
    });
    const body = server.requests[0]?.body as { messages: Record<string, unknown>[] };
    expect(body.messages[1]).toMatchObject({
      tool_calls: [{ function: { name: 'fs_list', arguments: { path: '.' } } }],
    });
    expect(body.messages[2]).toMatchObject({ role: 'tool', tool_name: 'fs_list', content: 'a/' });
  });

  it('maps an error status to ProviderError and silence to NetworkError', async () => {
    server.script(reply.error(503, 'loading'));
    const error = await client()
      .chat({ messages: [{ role: 'user', content: 'x' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).status).toBe(503);
    server.script(reply.hang());
    await expect(
      client(200).chat({ messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toBeInstanceOf(NetworkError);
  });

  it('rejects with the abort reason when cancelled', async () => {
    server.script(reply.hang());
    const controller = new AbortController();
    const pending = client().chat({
      messages: [{ role: 'user', content: 'x' }],
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
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

  it('waits no longer than its cap when Retry-After asks for more (an HTTP date)', async () => {
    const later = new Date(Date.now() + 30_000).toUTCString();
    const at = timed(reply.error(503, 'busy', { 'retry-after': later }), reply.text('capped'));
    const retried = withRetry(client(), {
      maxRetries: 2,
      minTimeoutMs: 1,
      maxTimeoutMs: 2,
      maxRetryAfterMs: 300,
    });
    expect((await retried.chat({ messages: [{ role: 'user', content: 'x' }] })).text).toBe(
      'capped',
    );
    expect((at[1] ?? 0) - (at[0] ?? 0)).toBeGreaterThanOrEqual(295);
    expect((at[1] ?? 0) - (at[0] ?? 0)).toBeLessThan(20_000);
  });
});
