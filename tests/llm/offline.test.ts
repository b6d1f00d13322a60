import { describe, expect, it } from 'vitest';
import { createOfflineClient } from '../../runtime/llm/offline.ts';

const ask = (content: string) =>
  createOfflineClient().chat({ messages: [{ role: 'user', content }] });

describe('offline client', () => {
  it('turns slash commands into tool calls', async () => {
    expect((await ask('/run ls -la /tmp')).toolCalls[0]).toMatchObject({
      name: 'shell_exec',
      argumentsText: '{"command":"ls -la /tmp"}',
    });
    expect((await ask('/read ~/a.txt')).toolCalls[0]).toMatchObject({
      name: 'fs_read',
      argumentsText: '{"path":"~/a.txt"}',
    });
    expect((await ask('/ls')).toolCalls[0]).toMatchObject({
      name: 'fs_list',
      argumentsText: '{"path":"."}',
    });
    expect((await ask('/write ~/x.txt hello there')).toolCalls[0]).toMatchObject({
      name: 'fs_write',
      argumentsText: '{"path":"~/x.txt","content":"hello there"}',
    });
    expect((await ask('/fetch https://example.org')).toolCalls[0]).toMatchObject({
      name: 'web_fetch',
    });
  });

  it('answers plain text with how to connect a model, and usage for bad commands', async () => {
    const answer = await ask('what is the weather?');
    expect(answer.toolCalls).toEqual([]);
    expect(answer.text).toContain('OPENAI_API_KEY');
    expect((await ask('/write onlypath')).text).toContain('Usage: /write');
    expect((await ask('/help')).text).toContain('/fetch <url>');
  });

  it('summarises a tool observation: output on success, the reason on a denial', async () => {
    const client = createOfflineClient();
    const after = (content: string) =>
      client.chat({
        messages: [
          { role: 'user', content: '/run echo hi' },
          {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'a', name: 'shell_exec', argumentsText: '{}' }],
          },
          { role: 'tool', toolCallId: 'a', name: 'shell_exec', content },
        ],
      });
    expect(
      (
        await after(
          JSON.stringify({ status: 'ok', result: { stdout: 'hi\n', stderr: '', exit_code: 0 } }),
        )
      ).text,
    ).toBe('hi');
    const ok = async (result: unknown) =>
      (await after(JSON.stringify({ status: 'ok', result }))).text;
    expect(await ok({ path: '/tmp', entries: ['a', 'b/'] })).toBe('a\nb/');
    expect(await ok({ path: '/h/x.txt', bytes: 2 })).toBe('path: /h/x.txt\nbytes: 2');
    expect(await ok({ stdout: '', stderr: 'no', exit_code: 1 })).toBe('no\n(exit code 1)');
    expect(
      (await after(JSON.stringify({ status: 'denied', reason: 'guard: forbidden path' }))).text,
    ).toBe('Not done: guard: forbidden path');
  });
});
