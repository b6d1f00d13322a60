// `git -C DIR` repeated along a line (`git -C DIR add f && git -C DIR commit -m m`, `mv /a /b &&
// git -C DIR status`): each git runs in DIR whatever the shell's directory, so the line is judged
// in DIR when every git names the same DIR and every other command does the same from anywhere.
// Work git cannot give back, another directory, a relative name and the home as a repository
// still ask, as the same line after `cd DIR &&` does.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';
import { git as gitWithAuthor } from './planted-files.ts';

let project: string;
let other: string;
let pipeline: Pipeline;
const git = (...args: string[]): string => gitWithAuthor('-C', project, ...args);

beforeAll(async () => {
  project = await makeTempDir('chained-');
  other = await makeTempDir('other-');
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'a');
  git('config', 'user.email', 'a@a');
  await writeFile(join(project, 'a.txt'), 'a\n');
  git('add', 'a.txt');
  git('commit', '-qm', 'first');
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
});
afterAll(() => pipeline.close());

function decide(command: string): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command }, 'commit my change'));
}

describe('git -C DIR along a line', () => {
  it('stages and commits without a card, and the commit exists after a real run', async () => {
    await writeFile(join(project, 'b.txt'), 'b\n');
    const outcome = await decide(
      `git -C ${project} add b.txt && git -C ${project} commit -q -m "add b" && git -C ${project} log --oneline -1`,
    );
    expect(outcome).toMatchObject({ decision: 'allow' });
    expect(await pipeline.invoke(outcome, new AbortController().signal)).toMatchObject({
      ok: true,
      result: { exit_code: 0, stdout: expect.stringContaining('add b') },
    });
    expect(git('status', '--short')).toBe('');
  });

  it('folds a line of one -C with commands that do the same anywhere', async () => {
    for (const command of [
      `git -C ${project} tag -a v1 -m "one" && git -C ${project} tag -l -n1`,
      `mv ${project}/b.txt ${project}/c.txt && git -C ${project} status --short`,
      `git -C ${project} status; git -C ${project} log --oneline | head -3`,
    ])
      expect((await decide(command)).decision, command).toBe('allow');
  });

  it('asks for what the same line after cd asks for', async () => {
    await writeFile(join(project, 'a.txt'), 'changed\n');
    for (const command of [
      `git -C ${project} status && git -C ${project} reset --hard`,
      `git -C ${project} add -A && git -C ${project} push`,
      `git -C ${project} status && git -C ${project} checkout -- a.txt`,
      `git -C ${project} log --oneline && rm -f ${project}/a.txt`,
    ]) {
      expect((await decide(command)).decision, command).not.toBe('allow');
      expect((await decide(`cd ${project} && ${command}`)).decision, command).not.toBe('allow');
    }
  });

  it('keeps the line as given for two directories, a relative name or a sort that writes', async () => {
    for (const command of [
      `git -C ${project} add -A && git -C ${other} status`,
      `git -C ${project} add -A && git -C ~/.ssh log`,
      `git -C ${project} add -A && cat a.txt`,
      `git -C ${project} log | sort -o out.txt`,
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });

  it('judges the home named by -C as the same line after cd ~', async () => {
    const line = 'git add -A && git commit -m all';
    expect((await decide(line.replaceAll('git ', 'git -C ~ '))).decision).toBe(
      (await decide(`cd ~ && ${line}`)).decision,
    );
  });
});
