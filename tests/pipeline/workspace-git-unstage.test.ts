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
