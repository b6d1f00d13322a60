// Two kinds of text a repository stores that git prints with no check of its words seeing it. A
// commit message holding a token (`deploy with ghp_…`): `git log`, `--oneline` included, prints
// it, and `| rev`, `--grep`, a format that cuts or wraps it turn it into a form (or an answer)
// the output check cannot see; printed whole, the output check cuts it. And a history with more text
// than a decision reads (16 MiB): the decision cannot know what it holds, so git's text may pass
// only through filters that keep each line whole, where the output check still sees every line.
// Real repositories, real pipeline, real sandbox.
import { spawnSync } from 'node:child_process';
import { beforeEach, describe, expect, it } from 'vitest';
import { TREE_TEXT_LIMIT } from '../../runtime/pipeline/credential-file.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, printedIfUncarded } from './pipeline-helpers.ts';
import { git, plant, shellCallsWithFreshPipeline } from './planted-files.ts';

const sandboxWorks =
  spawnSync('bwrap', ['--unshare-user', '--ro-bind', '/', '/', 'true']).status === 0;
const intent = 'look at the history of my project';
const TOKEN = 'ghp_M3ssageT0kenAbCdEfGhIjKlMnOpQrStUv12';
const reversed = [...TOKEN].reverse().join('');
let repo: string;

beforeEach(async () => {
  repo = `${await makeTempDir('gitmsg-')}/app`;
});

const { pipeline, decide, expectDecisions, expectNotAllowed } = shellCallsWithFreshPipeline(
  () => repo,
  intent,
);

/** A repository whose first commit's message holds the token; no file ever did. */
async function plantMessage(dir: string): Promise<void> {
  git('init', '-q', dir);
  await plant(`${dir}/README.md`, '# app\n');
  git('-C', dir, 'add', '-A');
  git('-C', dir, 'commit', '-qm', `deploy with ${TOKEN}`);
  await plant(`${dir}/README.md`, '# app\n\nsecond\n');
  git('-C', dir, 'commit', '-qam', 'second');
}

/**
 * A repository with more stored text than a decision reads, whose first commit held the token in
 * a config file that the second commit blanked.
 */
async function plantLargeHistory(dir: string): Promise<void> {
  git('init', '-q', dir);
  await plant(`${dir}/config.ini`, `[github]\ntoken=${TOKEN}\n`);
  const line = 'log line of an ordinary large data file, nothing secret in it\n';
  await plant(`${dir}/data.txt`, line.repeat(Math.ceil(TREE_TEXT_LIMIT / line.length) + 1000));
  git('-C', dir, 'add', '-A');
  git('-C', dir, 'commit', '-qm', 'first');
  await plant(`${dir}/config.ini`, '[github]\ntoken=\n');
  git('-C', dir, 'commit', '-qam', 'blank the token');
}

describe('a token in a commit message is not printed in another form without a card', () => {
  it('asks before git prints the messages', async () => {
    await plantMessage(repo);
    await expectNotAllowed([
      'git log | rev',
      'git log --oneline | rev',
      'git log --format=%s | rev',
      'git log --pretty=format:%B -1 HEAD~1 | rev',
      'git show --stat HEAD~1 | rev',
      'git branch -v | rev',
      "git log --grep='ghp_M3' --format=%h",
      "git log --format='%<(12,trunc)%s'",
      "git log --format='%w(8)%B'",
      'git log --encoding=UTF-16',
    ]);
  });

  it('asks where the config of the repository reshapes what git log prints', async () => {
    await plantMessage(repo);
    git('-C', repo, 'config', 'format.pretty', '%w(8)%s');
    await expectNotAllowed(['git log', 'git log -3']);
  });

  it.skipIf(!sandboxWorks)('never shows the token reversed', async () => {
    await plantMessage(repo);
    const printed = await printedIfUncarded(
      pipeline(),
      call('shell_exec', { command: 'git log --oneline | rev', cwd: repo }, intent),
    );
    expect(printed).not.toContain(reversed);
  });

  it.skipIf(!sandboxWorks)(
    'still prints the messages whole, where the output check cuts the token',
    async () => {
      await plantMessage(repo);
      await expectDecisions('allow', [
        'git log',
        'git log --oneline | head -5',
        'git branch -v',
        'git status',
      ]);
      const printed = await printedIfUncarded(
        pipeline(),
        call('shell_exec', { command: 'git log --oneline', cwd: repo }, intent),
      );
      expect(printed).toContain('deploy with');
      expect(printed).not.toContain(TOKEN);
    },
  );

  it('still lists hashes and authors, and the messages of a clean repository', async () => {
    await plantMessage(repo);
    await expectDecisions('allow', ['git log --format=%h', 'git shortlog -sn', 'git status']);
    const clean = `${await makeTempDir('gitmsg-clean-')}/site`;
    git('init', '-q', clean);
    await plant(`${clean}/index.md`, 'hello\n');
    git('-C', clean, 'add', '-A');
    git('-C', clean, 'commit', '-qm', 'first page');
    await expectDecisions('allow', ['git log | rev', 'git log --oneline', 'git branch -v'], clean);
  });
});

describe('a history too large to read is printed only through filters that keep lines whole', () => {
  it('asks before its text reaches a filter that reshapes lines', async () => {
    await plantLargeHistory(repo);
    await expectNotAllowed([
      'git log -p | rev',
      'git diff HEAD~1 | rev',
      'git show HEAD~1 | fold -w 5',
      'git log -p | grep -o .',
      'git log -p | cut -c 7-',
    ]);
  });

  it.skipIf(!sandboxWorks)('never shows the token reversed', async () => {
    await plantLargeHistory(repo);
    const printed = await printedIfUncarded(
      pipeline(),
      call('shell_exec', { command: 'git diff HEAD~1 -- config.ini | rev', cwd: repo }, intent),
    );
    expect(printed).not.toContain(reversed);
  });

  it.skipIf(!sandboxWorks)(
    'still prints it whole, where the output check cuts the token',
    async () => {
      await plantLargeHistory(repo);
      for (const command of [
        'git log -p -- config.ini',
        'git log -p | head -50',
        'git diff HEAD~1 --stat',
        'git log --oneline',
      ])
        expect(await decide(command), command).toMatchObject({ decision: 'allow' });
      const printed = await printedIfUncarded(
        pipeline(),
        call('shell_exec', { command: 'git log -p -- config.ini', cwd: repo }, intent),
      );
      expect(printed).toContain('token=');
      expect(printed).not.toContain(TOKEN);
    },
  );
});
