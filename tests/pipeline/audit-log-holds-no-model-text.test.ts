// The audit log names the executor and its argument keys, never an argument value. A key and an
// executor name are text the model chooses too: a call with a made-up key (or a made-up tool)
// carrying a token must not write the token to the log, through the key list or through the
// validation message that names what was wrong.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthKey } from '../../runtime/paths.ts';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const token = `ghp_${'LOGGEDkeyName0123456789abcdefghijklmn'.slice(0, 36)}`;

let pipeline: Pipeline;
beforeAll(async () => {
  pipeline = await pipelineWith();
});
afterAll(() => pipeline.close());

function logText(): string {
  const file = join(process.env.XDG_DATA_HOME ?? '', 'custode', 'vaglio', `${monthKey()}.jsonl`);
  return readFileSync(file, 'utf8');
}

describe('the audit log holds no text the model chose as a key or a tool name', () => {
  it('a made-up key, a made-up tool and a wrongly typed value leave no token in the log', async () => {
    const outcomes = [
      await pipeline.evaluate(call('fs_read', { path: '/etc/hostname', [token]: 1 })),
      await pipeline.evaluate(
        call('web_fetch', { url: 'https://example.com/', [`x-${token}`]: 'y' }),
      ),
      await pipeline.evaluate(call(`fs_read_${token}`, { path: '/etc/hostname' })),
    ];
    for (const outcome of outcomes) expect(outcome.decision).toBe('deny');
    const text = logText();
    expect(text).not.toContain(token);
    // What the schema knows is still named.
    expect(text).toContain('"args_keys":["path"]');
  });

  it('the model still learns which keys were wrong', async () => {
    const outcome = await pipeline.evaluate(call('fs_read', { path: '/etc/hostname', pth: 'x' }));
    expect(outcome.decision).toBe('deny');
    expect(outcome.reason).toMatch(/unrecognized key/i);
  });
});
