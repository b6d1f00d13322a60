// A tracked file edited in the work tree may hold a credential no commit holds yet (a token pasted
// into a config to try it). `git diff`, `git grep` and `git blame` print the work tree's text;
// the output check cuts the token only in its own shape, and `| rev` prints it in another. `cat
// FILE | rev` asks for that file; git printing the same text asks too. Real repository, real
// pipeline, real sandbox.
import { spawnSync } from 'node:child_process';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../executors/make-context.ts';
import { printedIfUncarded, call } from './pipeline-helpers.ts';
import { git, plant, shellCallsWithFreshPipeline } from './planted-files.ts';

const sandboxWorks =
  spawnSync('bwrap', ['--unshare-user', '--ro-bind', '/', '/', 'true']).status === 0;
const intent = 'show me what I changed';
const TOKEN = 'ghp_W0rkTr33T0kenAbCdEfGhIjKlMnOpQrStUv12';
const reversed = [...TOKEN].reverse().join('');
let repo: string;

/** A clean repository whose tracked `src/config.js` now holds the token, uncommitted. */
async function plantEdit(dir: string): Promise<void> {
  git('init', '-q', dir);
  await plant(`${dir}/src/config.js`, 'export const token = process.env.TOKEN;\n');
  git('-C', dir, 'add', '-A');
  git('-C', dir, 'commit', '-qm', 'first');
  await plant(`${dir}/src/config.js`, `export const token = "${TOKEN}";\n`);
}

beforeEach(async () => {
  repo = `${await makeTempDir('gitwt-')}/app`;
});

const { pipeline, decide, expectNotAllowed } = shellCallsWithFreshPipeline(() => repo, intent);

describe('git does not print a credential in an uncommitted edit without a card', () => {
  it('asks before git prints the edited text', async () => {
    await plantEdit(repo);
    await expectNotAllowed([
      'git diff | rev',
      'git diff HEAD -U0 | rev',
      'git diff --word-diff-regex=. src',
      'git grep -h token | rev',
      'git blame src/config.js | rev',
    ]);
    await expectNotAllowed(['git diff .. | rev'], `${repo}/src`);
  });

  it.skipIf(!sandboxWorks)('never shows the token reversed', async () => {
    await plantEdit(repo);
    const printed = await printedIfUncarded(
      pipeline(),
      call('shell_exec', { command: 'git diff | rev', cwd: `${repo}/src` }, intent),
    );
    expect(printed).not.toContain(reversed);
  });

  it.skipIf(!sandboxWorks)('still shows an ordinary edit without a card', async () => {
    await plantEdit(repo);
    await plant(`${repo}/src/config.js`, 'export const token = process.env.API_TOKEN;\n');
    expect(await decide('git diff --stat')).toMatchObject({ decision: 'allow' });
    const printed = await printedIfUncarded(
      pipeline(),
      call('shell_exec', { command: 'git diff | rev', cwd: repo }, intent),
    );
    expect(printed).toContain('NEKOT_IPA');
  });

  it.skipIf(!sandboxWorks)(
    'still shows the staged change and the history, which hold no edit, without a card',
    async () => {
      await plantEdit(repo);
      await plant(`${repo}/README.md`, '# app\n');
      git('-C', repo, 'add', 'README.md');
      for (const command of [
        'git diff --cached | rev',
        'git diff --staged --stat',
        'git log -p | rev',
      ])
        expect(await decide(command), command).toMatchObject({ decision: 'allow' });
      const printed = await printedIfUncarded(
        pipeline(),
        call('shell_exec', { command: 'git diff --cached | rev', cwd: repo }, intent),
      );
      expect(printed).toContain('ppa #');
      expect(printed).not.toContain(reversed);
    },
  );
});
