// Single-shot plans: the whole plan in one response, every call through the pipeline, and
// a refused middle step stops the plan with a report of what ran and what did not.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../runtime/app.ts';
import { createLlmClient } from '../../runtime/llm/select.ts';
import { reply, startOpenAiServer, type ScriptedServer } from '../helpers/openai-server.ts';
import { createRecordingSink, says, startApp } from './harness.ts';

const home = process.env.HOME ?? '';
let app: App | undefined;
let server: ScriptedServer | undefined;
afterEach(async () => {
  await app?.close();
  await server?.close();
});

describe('single-shot planner', () => {
  it('stops at the denied middle step and reports what ran and what did not', async () => {
    server = await startOpenAiServer();
    await writeFile(join(home, 'first.txt'), 'one');
    await writeFile(join(home, 'third.txt'), 'three');
    const client = createLlmClient(
      { provider: 'openai', baseUrl: `${server.url}/v1`, timeoutMs: 5_000, maxRetries: 0 },
      { OPENAI_API_KEY: 'sk' },
    );
    app = await startApp(client, { planner: { mode: 'single-shot' } });
    server.script(
      reply.calls(
        { name: 'fs_read', arguments: { path: '~/first.txt' } },
        { name: 'fs_delete', arguments: { path: '/etc/passwd' } },
        { name: 'fs_read', arguments: { path: '~/third.txt' } },
      ),
    );
    const sink = createRecordingSink();
    await app.service.handleMessage(says('read first, delete passwd, read third'), sink);
    const [report] = sink.texts();
    expect(report).toContain('I stopped the plan at step 2: fs_delete');
    expect(report).toContain('Ran:\n  - fs_read {"path":"~/first.txt"}');
    expect(report).toContain('Not run:\n  - fs_read {"path":"~/third.txt"}');
    expect(server.requests).toHaveLength(1);
    const steps = sink.entries.flatMap((entry) => (entry.kind === 'step' ? [entry.line] : []));
    expect(steps).toHaveLength(2);
    expect(existsSync('/etc/passwd')).toBe(true);
  });
});
