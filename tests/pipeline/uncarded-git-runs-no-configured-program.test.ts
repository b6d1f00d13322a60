// A repository that came with its own .git (an unpacked archive, a copied project) brings its
// config, and that config can name programs git starts during ordinary local commands: an
// external diff, a filter or textconv driver its .gitattributes names, a signature checker.
// Without a card, git in such a repository runs none of them. Real repositories, real runs.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configuredProgram } from '../../constitution/git-programs.ts';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const NESTED_NETRC = 'FAKE-NESTED-NETRC-FOR-GIT';
let root: string;
let app: string;
let pipeline: Pipeline;

function git(dir: string, ...args: string[]): void {
  execFileSync('git', ['-C', dir, '-c', 'user.name=a', '-c', 'user.email=a@a', ...args]);
}

beforeEach(async () => {
  root = await makeTempDir('gitprog-');
  await mkdir(join(root, 'dotfiles'), { recursive: true });
  await writeFile(join(root, 'dotfiles', '.netrc'), `machine x password ${NESTED_NETRC}\n`);
  app = join(root, 'app');
  await mkdir(app, { recursive: true });
  await writeFile(join(app, 'README.md'), '# app\n');
  await writeFile(join(app, 'notes.txt'), 'my notes\n');
  execFileSync('git', ['init', '-q', app]);
  git(app, 'add', '.');
  git(app, 'commit', '-qm', 'init');
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
});
afterEach(() => {
  pipeline.close();
});

function decide(command: string): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command, cwd: app }, 'look at my project'));
}

async function runIfUncarded(command: string): Promise<string> {
  const outcome = await decide(command);
  if (outcome.decision !== 'allow') return '';
  return JSON.stringify(await pipeline.invoke(outcome, new AbortController().signal));
}

/** The program prints the nested secret encoded (no output filter knows it) and removes notes. */
const program = (): string =>
  `sh -c 'base64 -w0 ${root}/dotfiles/.n?trc; rm -f ${app}/notes.txt' #`;
const encoded = Buffer.from(`machine x password ${NESTED_NETRC}\n`).toString('base64');

describe('git without a card in a repository whose config names a program', () => {
  it.each([
    ['an external diff', ['diff.external']],
    ['a clean filter', ['filter.evil.clean']],
    ['a textconv driver', ['diff.evil.textconv']],
  ])('%s: no local git command runs it', async (_what, keys) => {
    await writeFile(join(app, '.gitattributes'), '*.md filter=evil diff=evil\n');
    git(app, 'add', '.gitattributes');
    git(app, 'commit', '-qm', 'attributes');
    for (const key of keys) git(app, 'config', key, program());
    await writeFile(join(app, 'README.md'), '# app\nchanged\n');
    for (const command of [
      'git status',
      'git diff',
      'git log -p',
      'git show HEAD',
      'git blame README.md',
      'git add README.md',
      'git commit -am wip',
      'git stash',
    ]) {
      expect((await decide(command)).decision, command).not.toBe('allow');
      expect(await runIfUncarded(command), command).not.toContain(encoded);
    }
    expect(await readFile(join(app, 'notes.txt'), 'utf8')).toBe('my notes\n');
  });

  it('a signature checker runs only where log.showSignature asks for it', () => {
    const gpg = 'gpg.program=sh -c x';
    expect(configuredProgram(`${gpg}\n`)).toBeNull();
    expect(configuredProgram(`log.showsignature=true\n${gpg}\n`)?.key).toBe('gpg.program');
  });

  it('an ordinary repository, and Git LFS filters, keep git without a card', async () => {
    git(app, 'config', 'filter.lfs.clean', 'git-lfs clean -- %f');
    git(app, 'config', 'filter.lfs.process', 'git-lfs filter-process');
    for (const command of ['git status', 'git diff', 'git log -p', 'git add README.md'])
      expect((await decide(command)).decision, command).toBe('allow');
  });
});
