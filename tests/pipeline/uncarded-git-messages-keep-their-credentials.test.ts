// A repository keeps text besides its file versions: commit messages, tag annotations and notes.
// A token pasted into one of them (`git commit -m "deploy with ghp_…"`) is printed by `git log`,
// `git tag -n` or `git log --notes`; the output check cuts it only in its own shape, and `| rev`
// or `od -c` print it in another. So git printing a repository's messages asks when any of them
// holds a credential, as git printing its file versions does. Real repository, real pipeline,
// real sandbox.
import { spawnSync } from 'node:child_process';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../executors/make-context.ts';
import { printedIfUncarded, call } from './pipeline-helpers.ts';
import { git, plant, shellCallsWithFreshPipeline } from './planted-files.ts';

const sandboxWorks =
  spawnSync('bwrap', ['--unshare-user', '--ro-bind', '/', '/', 'true']).status === 0;
const intent = 'show me the history of my project';
const TOKEN = 'ghp_M3ssageT0kenAbCdEfGhIjKlMnOpQrStUv12';
const reversed = [...TOKEN].reverse().join('');
let repo: string;

async function commitFile(dir: string): Promise<void> {
  git('init', '-q', dir);
  git('-C', dir, 'config', 'user.email', 'me@example.org');
  git('-C', dir, 'config', 'user.name', 'me');
  await plant(`${dir}/README.md`, '# app\n');
  git('-C', dir, 'add', '-A');
}

async function plantCommitMessage(dir: string): Promise<void> {
  await commitFile(dir);
  git('-C', dir, 'commit', '-qm', `deploy with ${TOKEN}`);
}

/** The token in the message of a commit, of an annotated tag, or of a note. */
const plantings: Record<string, (dir: string) => Promise<void>> = {
  'a commit message': plantCommitMessage,
  'a tag annotation': async (dir) => {
    await commitFile(dir);
    git('-C', dir, 'commit', '-qm', 'first');
    git('-C', dir, 'tag', '-a', 'v1', '-m', `release token ${TOKEN}`);
  },
  'a note': async (dir) => {
    await commitFile(dir);
    git('-C', dir, 'commit', '-qm', 'first');
    git('-C', dir, 'notes', 'add', '-m', `note ${TOKEN}`, 'HEAD');
  },
};

beforeEach(async () => {
  repo = `${await makeTempDir('gitmsg-')}/app`;
});

const { pipeline, decide, expectNotAllowed } = shellCallsWithFreshPipeline(() => repo, intent);

describe('git messages holding a credential are not printed without a card', () => {
  for (const [where, plantToken] of Object.entries(plantings)) {
    it(`asks before git prints ${where} holding a token`, async () => {
      await plantToken(repo);
      await expectNotAllowed([
        'git log | rev',
        'git log --oneline | rev',
        'git log -1 --format=%s | od -c',
        'git log --notes | rev',
        'git tag -n | rev',
        'git shortlog | rev',
      ]);
    });
  }

  it.skipIf(!sandboxWorks)('never shows a commit message token reversed', async () => {
    await plantCommitMessage(repo);
    const printed = await printedIfUncarded(
      pipeline(),
      call('shell_exec', { command: 'git log | rev', cwd: repo }, intent),
    );
    expect(printed).not.toContain(reversed);
  });

  it.skipIf(!sandboxWorks)('still prints the messages of a clean repository', async () => {
    await commitFile(repo);
    git('-C', repo, 'commit', '-qm', 'hello world');
    expect(await decide('git tag -n')).toMatchObject({ decision: 'allow' });
    const printed = await printedIfUncarded(
      pipeline(),
      call('shell_exec', { command: 'git log --oneline | rev', cwd: repo }, intent),
    );
    expect(printed).toContain('dlrow olleh');
  });
});
