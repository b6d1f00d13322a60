// Unstaging (`git restore --staged PATHS`) and moving the branch back with every change kept
// (`git reset --soft REV`) run without a card: the work tree keeps each change and the commits
// left behind stay in the reflog. Resets and restores that put files back, or take another
// commit's version, ask.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';
import { git as gitWithAuthor } from './planted-files.ts';

let project: string;
let pipeline: Pipeline;
const git = (...args: string[]): string => gitWithAuthor('-C', project, ...args);

beforeAll(async () => {
  project = await makeTempDir('unstage-');
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'a');
  git('config', 'user.email', 'a@a');
  for (const [name, message] of [
    ['a.txt', 'first'],
    ['b.txt', 'second'],
  ] as const) {
    await writeFile(join(project, name), `${name}\n`);
    git('add', name);
    git('commit', '-qm', message);
  }
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
});
afterAll(() => pipeline.close());

function decide(command: string): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command, cwd: project }, 'fix my staging'));
}

async function run(command: string): Promise<void> {
  const outcome = await decide(command);
  expect(outcome, command).toMatchObject({ decision: 'allow' });
  expect(await pipeline.invoke(outcome, new AbortController().signal)).toMatchObject({
    ok: true,
    result: { exit_code: 0 },
  });
}

describe('unstaging and a soft reset', () => {
  it('unstages a file without a card and the change stays in the work tree', async () => {
    await writeFile(join(project, 'a.txt'), 'edited\n');
    await run('git add a.txt && git restore --staged a.txt');
    expect(git('status', '--short')).toBe(' M a.txt\n');
    expect(await readFile(join(project, 'a.txt'), 'utf8')).toBe('edited\n');
  });

  it('moves the branch back without a card, keeping the changes and the commit in the reflog', async () => {
    const second = git('rev-parse', 'HEAD').trim();
    await run('git reset --soft HEAD~1 && git status --short');
    expect(git('log', '--format=%s')).toBe('first\n');
    expect(git('status', '--short')).toBe(' M a.txt\nA  b.txt\n');
    expect(git('reflog', '--format=%H')).toContain(second);
    expect(await readFile(join(project, 'a.txt'), 'utf8')).toBe('edited\n');
  });

  it('asks to move the branch back, or to amend, where no reflog would keep the commit left behind', async () => {
    // core.logAllRefUpdates=false from the first commit: git writes no reflog, so the commit a
    // soft reset or an amend leaves is kept only by ORIG_HEAD (or nothing), then pruned.
    const bare = await makeTempDir('no-reflog-');
    const inBare = (...args: string[]): string => gitWithAuthor('-C', bare, ...args);
    inBare('init', '-q', '-b', 'main');
    inBare('config', 'core.logAllRefUpdates', 'false');
    for (const name of ['a.txt', 'b.txt']) {
      await writeFile(join(bare, name), `${name}\n`);
      inBare('add', name);
      inBare('commit', '-qm', name);
    }
    for (const command of [
      'git reset --soft HEAD~1',
      'git commit --amend -m "reworded"',
      'git commit --amend --no-edit',
    ])
      expect(
        await pipeline.evaluate(call('shell_exec', { command, cwd: bare }, 'fix my last commit')),
        command,
      ).toMatchObject({ decision: 'ask' });
    // With the reflog kept (the default), both still run without a card.
    for (const command of ['git reset --soft HEAD~1', 'git commit --amend -m "reworded"'])
      expect(await decide(command), command).toMatchObject({ decision: 'allow' });
  });

  it('asks to unstage a staged version that is neither the commit nor the work tree', async () => {
    // `git add` then more edits: the staged version exists nowhere else; unstaging would leave it
    // a dangling blob no ordinary git command gives back.
    const other = await makeTempDir('unstage-only-');
    const inOther = (...args: string[]): string => gitWithAuthor('-C', other, ...args);
    inOther('init', '-q', '-b', 'main');
    await writeFile(join(other, 'f.txt'), 'base\n');
    inOther('add', 'f.txt');
    inOther('commit', '-qm', 'first');
    await writeFile(join(other, 'f.txt'), 'the staged version\n');
    inOther('add', 'f.txt');
    await writeFile(join(other, 'f.txt'), 'the work tree version\n');
    for (const command of ['git restore --staged f.txt', 'git restore -S .']) {
      const outcome = await pipeline.evaluate(
        call('shell_exec', { command, cwd: other }, 'fix my staging'),
      );
      if (outcome.decision === 'allow')
        await pipeline.invoke(outcome, new AbortController().signal);
      expect(inOther('diff', '--cached'), command).toContain('+the staged version');
      expect(outcome.decision, command).not.toBe('allow');
    }
  });

  it('asks for a restore or reset that puts files back or takes another version', async () => {
    for (const command of [
      'git restore a.txt',
      'git restore --staged --worktree a.txt',
      'git restore -S -W a.txt',
      'git restore --staged --source=HEAD~1 a.txt',
      'git restore --staged -p a.txt',
      'git reset --hard HEAD~1',
      'git reset HEAD~1',
      'git reset --keep HEAD~1',
      'git reset --soft HEAD~1 -- a.txt',
      'git reset --soft --hard',
      'git checkout -- a.txt',
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
    expect(await readFile(join(project, 'a.txt'), 'utf8')).toBe('edited\n');
  });
});
