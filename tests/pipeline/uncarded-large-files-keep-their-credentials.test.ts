// A file larger than the decision reads (a long log, a big export) may hold a token past the part
// the decision saw. What a call without a card prints is filtered for credential shapes, but a
// filter sees only the shapes: `rev`, `fold`, `od -c`, `grep -o .` print the same token in a form
// no filter knows. So a file the decision could not read whole is read with a card, as a tree
// with more text than a walk reads already is. Real files, real pipeline, real sandbox.
import { spawnSync } from 'node:child_process';
import { open } from 'node:fs/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import { TREE_TEXT_LIMIT } from '../../runtime/pipeline/credential-file.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { printedIfUncarded, call } from './pipeline-helpers.ts';
import { plant, shellCallsWithFreshPipeline } from './planted-files.ts';

const sandboxWorks =
  spawnSync('bwrap', ['--unshare-user', '--ro-bind', '/', '/', 'true']).status === 0;
const intent = 'look at my logs';
const TOKEN = 'ghp_L4rgeL0gT0kenAbCdEfGhIjKlMnOpQrStUv12';
const reversed = [...TOKEN].reverse().join('');
let home: string;

/** A log of ordinary lines, `size` bytes or more, ending in a line that holds the token. */
async function plantLog(path: string, size: number): Promise<void> {
  const line = '2026-11-26 INFO request handled ok in 12ms path=/api/v1/items\n';
  const file = await open(path, 'w');
  const block = line.repeat(Math.ceil((1024 * 1024) / line.length));
  for (let written = 0; written < size; written += block.length) await file.write(block);
  await file.write(`DEBUG github token=${TOKEN}\n`);
  await file.close();
}

beforeEach(async () => {
  home = await makeTempDir('biglog-');
});

const { pipeline, decide, expectNotAllowed } = shellCallsWithFreshPipeline(() => home, intent);

describe('a file larger than the decision reads is not printed in another form without a card', () => {
  it('asks before its text is reversed, folded, dumped or split by a filter', async () => {
    await plantLog(`${home}/app.log`, TREE_TEXT_LIMIT + 1024);
    await expectNotAllowed([
      'tail -c 300 app.log | rev',
      'grep DEBUG app.log | rev',
      'tail -n 1 app.log | fold -w 8',
      'tail -n 1 app.log | od -c',
      'grep -o . app.log',
      'cut -c 20-60 app.log',
    ]);
  });

  it.skipIf(!sandboxWorks)('never shows the token reversed', async () => {
    await plantLog(`${home}/app.log`, TREE_TEXT_LIMIT + 1024);
    const printed = await printedIfUncarded(
      pipeline(),
      call('shell_exec', { command: 'tail -c 200 app.log | rev', cwd: home }, intent),
    );
    expect(printed).not.toContain(reversed);
  });

  it.skipIf(!sandboxWorks)(
    'still reads a log the decision reads whole, reversed, without a card',
    async () => {
      await plant(`${home}/small.log`, '2026-11-26 INFO started\n2026-11-26 INFO done\n');
      const outcome = await decide('tail -n 1 small.log | rev');
      expect(outcome).toMatchObject({ decision: 'allow', grant: { tier: 'read-only' } });
      const printed = await printedIfUncarded(
        pipeline(),
        call('shell_exec', { command: 'tail -n 1 small.log | rev', cwd: home }, intent),
      );
      expect(printed).toContain('enod OFNI');
    },
  );
});
