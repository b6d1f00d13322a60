// The planner through the real `ollama` SDK against a local server speaking /api/chat.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../runtime/app.ts';
import { createLlmClient } from '../../runtime/llm/select.ts';
import { reply, startOllamaServer, type ScriptedServer } from '../helpers/ollama-server.ts';
import { createRecordingSink, says, startApp } from './harness.ts';

let server: ScriptedServer;
let app: App | undefined;
const home = process.env.HOME ?? '';

beforeEach(async () => {
  server = await startOllamaServer();
});
afterEach(async () => {
  await app?.close();
  app = undefined;
  await server.close();
});

type Body = { messages: { role: string; content: string; tool_name?: string }[] };
const toolResults = (index: number) =>
  (server.requests[index]?.body as Body).messages.filter((message) => message.role === 'tool');

describe('planner over the Ollama wire format', () => {
  it('reads a file, then answers with its content', async () => {
    await writeFile(join(home, 'ollama-note.txt'), 'llamas hum');
    app = await startApp(
      createLlmClient(
        { provider: 'ollama', baseUrl: server.url, timeoutMs: 5_000, maxRetries: 0 },
        {},
      ),
    );
    server.script(
      reply.call('fs_read', { path: '~/ollama-note.txt' }),
      reply.text('It says: llamas hum.'),
    );
    const sink = createRecordingSink();
    await app.service.handleMessage(says('read ~/ollama-note.txt'), sink);
    expect(sink.texts()).toEqual(['It says: llamas hum.']);
    const [result] = toolResults(1);
    expect(result?.tool_name).toBe('fs_read');
    expect(result?.content).toContain('llamas hum');
    expect(server.unexpected).toEqual([]);
  });

  it('gives arguments that are not an object back as an error the model can correct', async () => {
    app = await startApp(
      createLlmClient(
        { provider: 'ollama', baseUrl: server.url, timeoutMs: 5_000, maxRetries: 0 },
        {},
      ),
    );
    server.script(reply.call('fs_list', 'not an object'), reply.text('Sorry, let me stop there.'));
    const sink = createRecordingSink();
    await app.service.handleMessage(says('list things'), sink);
    expect(toolResults(1)[0]?.content).toContain('must be one JSON object');
    expect(sink.texts()).toEqual(['Sorry, let me stop there.']);
  });
});
