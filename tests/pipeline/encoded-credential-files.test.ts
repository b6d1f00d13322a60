// A file that holds a token only encoded (`base64 token.txt > t.b64`, `xxd -p`, wrapped over
// several lines as those tools wrap it) holds a credential: fs_read cut it from its whole text, but
// `head -1`, `grep -n .` and fs_grep print it line by line, and no line alone decodes to the token.
// Such a file is read with a card, as the same token in plain text is.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith, printedIfUncarded } from './pipeline-helpers.ts';

const token = `ghp_${'PLANTEDencoded0123456789abcdefghijkl'.slice(0, 36)}`;
/** Wrapped as `xxd -p` (60 hex digits a line) and `base64` (76 characters a line) wrap. */
function wrapped(text: string, width: number): string {
  return `${(text.match(new RegExp(`.{1,${String(width)}}`, 'g')) ?? []).join('\n')}\n`;
}
const files = {
  'token.hex': wrapped(Buffer.from(token).toString('hex'), 60),
  'token.b64': wrapped(Buffer.from(`github token: ${token}\n`.repeat(3)).toString('base64'), 76),
};
let pipeline: Pipeline;
let downloads: string;

beforeAll(async () => {
  downloads = await makeTempDir('encoded-');
  for (const [name, text] of Object.entries(files)) await writeFile(join(downloads, name), text);
  pipeline = await pipelineWith({ roots: { write: ['~'] } });
});
afterAll(() => pipeline.close());

describe('a file holding a token only encoded', () => {
  it.each(Object.keys(files))('%s is read with a card, whole or line by line', async (name) => {
    const path = join(downloads, name);
    for (const [executor, args] of [
      ['fs_read', { path }],
      ['fs_grep', { pattern: '.', path }],
      ['shell_exec', { command: `head -1 ${path}`, cwd: downloads }],
      ['shell_exec', { command: `grep -n . ${path}`, cwd: downloads }],
    ] as const) {
      const outcome = await pipeline.evaluate(call(executor, args, 'look at my downloads'));
      expect(outcome.decision, `${executor} ${JSON.stringify(args)}`).toBe('ask');
    }
  });

  it('is withheld from fs_grep over its directory, whatever the pattern', async () => {
    for (const pattern of ['.', '^67', 'zzz-no-such-text']) {
      const printed = await printedIfUncarded(
        pipeline,
        call('fs_grep', { pattern, path: downloads }, 'search my downloads'),
      );
      expect(printed, pattern).toContain('"credentials_withheld":2');
      for (const text of Object.values(files)) {
        for (const line of text.split('\n').filter((l) => l !== '')) {
          expect(printed, pattern).not.toContain(line);
        }
      }
    }
  });
});
