import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../runtime/config.ts';
import { selectProvider } from '../../runtime/llm/select.ts';
import { reply, startOllamaServer, type ScriptedServer } from '../helpers/ollama-server.ts';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
});

describe('selectProvider', () => {
  it('follows config first', async () => {
    const { client, reason } = await selectProvider(parseConfig({ llm: { provider: 'offline' } }), {
      OPENAI_API_KEY: 'sk',
    });
    expect(client.provider).toBe('offline');
    expect(reason).toContain('config');
  });

  it('keeps a configured Ollama and says whether it answers', async () => {
    server = await startOllamaServer();
    const config = parseConfig({ llm: { provider: 'ollama', base_url: server.url } });
    const up = await selectProvider(config, {});
    expect(up.client.provider).toBe('ollama');
    expect(up.reason).toBe(`config llm.provider is ollama (answers at ${server.url})`);
    await server.close();
    const down = await selectProvider(config, {});
    expect(down.client.provider).toBe('ollama');
    expect(down.reason).toContain('NOT answering');
    server = undefined;
  });

  it('picks OpenAI when a key is set', async () => {
    const { client, reason } = await selectProvider(parseConfig({}), {
      OPENAI_API_KEY: 'sk',
      CUSTODE_MODEL: 'gpt-x',
    });
    expect([client.provider, client.model]).toEqual(['openai', 'gpt-x']);
    expect(reason).toContain('OPENAI_API_KEY');
  });

  it('picks an Ollama that answers, and talks to it', async () => {
    server = await startOllamaServer();
    const { client, reason } = await selectProvider(parseConfig({}), { OLLAMA_HOST: server.url });
    expect(client.provider).toBe('ollama');
    expect(reason).toContain(server.url);
    server.script(reply.text('hello'));
    expect((await client.chat({ messages: [{ role: 'user', content: 'hi' }] })).text).toBe('hello');
    expect(server.requests.map((request) => request.path)).toEqual(['/api/tags', '/api/chat']);
  });

  it('falls back to offline when nothing answers', async () => {
    server = await startOllamaServer();
    const deadHost = server.url;
    await server.close();
    server = undefined;
    const { client, reason } = await selectProvider(parseConfig({}), { OLLAMA_HOST: deadHost });
    expect(client.provider).toBe('offline');
    expect(reason).toContain('offline');
  });
});
