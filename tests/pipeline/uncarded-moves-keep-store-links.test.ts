// A directory moved without a card may hold a hard link to a protected store (a backup folder
// holding `hist.txt`, another name of ~/.bash_history). Such a name stays protected because it is
// the store's own file. In the sandbox the source and the destination are separate writable
// binds, so `mv` cannot rename across them and copies instead: the copy is a new, unlinked file,
// and the next read of it (`rev archive/old/hist.txt`) ran without a card. So a move of a tree
// that holds a protected place asks; an ordinary folder still moves. Real files, real pipeline,
// real sandbox.
import { spawnSync } from 'node:child_process';
import { link, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../executors/make-context.ts';
import { printedIfUncarded, call } from './pipeline-helpers.ts';
import { plant, shellCallsWithFreshPipeline } from './planted-files.ts';

const sandboxWorks =
  spawnSync('bwrap', ['--unshare-user', '--ro-bind', '/', '/', 'true']).status === 0;
const intent = 'tidy my folders';
const HISTORY = 'mysql --user root --password=correct-horse-battery-staple\n';
const reversed = [...HISTORY.trim()].reverse().join('');
let place: string;

beforeEach(async () => {
  place = await makeTempDir('moves-');
  const home = process.env.HOME ?? '/nonexistent';
  await plant(join(home, '.bash_history'), HISTORY);
  await plant(join(place, 'old', 'readme.txt'), 'old things\n');
  await link(join(home, '.bash_history'), join(place, 'old', 'hist.txt'));
  await plant(join(place, 'archive', 'index.txt'), 'archive\n');
});

const { pipeline, decide, run } = shellCallsWithFreshPipeline(() => place, intent);

describe('a move without a card keeps a store’s other names its own', () => {
  it('asks before moving a folder that holds a hard link to a protected store', async () => {
    for (const command of ['mv old archive/old', 'mv old archive/', 'mv -v old archive/old2'])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });

  it.skipIf(!sandboxWorks)('never shows the store through the moved copy', async () => {
    const moved = await pipeline().evaluate(
      call('shell_exec', { command: 'mv old archive/old', cwd: place }, intent),
    );
    if (moved.decision === 'allow') await pipeline().invoke(moved, new AbortController().signal);
    const printed = await printedIfUncarded(
      pipeline(),
      call('shell_exec', { command: 'rev archive/old/hist.txt', cwd: place }, intent),
    );
    expect(printed).not.toContain(reversed);
  });

  it.skipIf(!sandboxWorks)('still moves an ordinary folder without a card', async () => {
    await plant(join(place, 'photos', 'a.jpg'), 'jpg\n');
    await run('mv photos archive/photos');
    expect(await readdir(join(place, 'archive', 'photos'))).toEqual(['a.jpg']);
  });
});
