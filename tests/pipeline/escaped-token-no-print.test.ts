// A token is still a token right after an escape: a URL-encoded callback (`…%26token%3Dghp_…`), a
// JSON log line whose text starts a line with it (`"first\nghp_…"`, `\u003dghp_…`). The escape
// ends in a letter or digit, which the shapes' "no token character before it" rule took for part
// of a longer word: the file was read without a card and its text printed whole.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith, printedIfUncarded } from './pipeline-helpers.ts';

const token = `ghp_${'PLANTEDescaped0123456789abcdefghijkl'.slice(0, 36)}`;
const texts = {
  'callback.txt': `see https://x.example/cb?state=1%26token%3D${token}\n`,
  'log.json': `{"msg":"pushed with\\n${token} ok"}\n`,
  'unicode.json': `{"q":"token\\u003d${token}"}\n`,
};
let pipeline: Pipeline;
let downloads: string;

beforeAll(async () => {
  downloads = await makeTempDir('escaped-');
  for (const [name, text] of Object.entries(texts)) await writeFile(join(downloads, name), text);
  pipeline = await pipelineWith({ roots: { write: ['~'] } });
});
afterAll(() => pipeline.close());

describe('a token after an escape', () => {
  it.each(Object.keys(texts))('in %s is read with a card, by fs_read and cat', async (name) => {
    const path = join(downloads, name);
    for (const [executor, args] of [
      ['fs_read', { path }],
      ['shell_exec', { command: `cat ${path}`, cwd: downloads }],
    ] as const) {
      const outcome = await pipeline.evaluate(call(executor, args, 'read my downloads'));
      expect(outcome.decision, `${executor} ${name}`).toBe('ask');
    }
  });

  it('is cut from what fs_grep and a listing print', async () => {
    await writeFile(join(downloads, `report.pdf%3Ftoken%3D${token}`), 'x\n');
    for (const [executor, args] of [
      ['fs_list', { path: downloads }],
      ['fs_grep', { pattern: 'ok|see|token', path: downloads }],
      ['shell_exec', { command: 'ls', cwd: downloads }],
    ] as const) {
      const printed = await printedIfUncarded(pipeline, call(executor, args, 'list my downloads'));
      expect(printed, executor).not.toContain(token);
    }
  });
});
