// Everyday read-only spellings that once asked: find handing each match to a reader (-exec du),
// a recursive grep limited to names (--include=*.js), and git told where to run (-C DIR).
// Each keeps the tree, the program and the directory judged as the plain form is.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const home = process.env.HOME ?? '';
let project: string;
let name: string;
let pipeline: Pipeline;

beforeAll(async () => {
  project = await makeTempDir('app-');
  name = project.slice(home.length + 1);
  await mkdir(join(project, 'src'));
  await writeFile(join(project, 'src', 'a.js'), '// TODO: one\n');
  await mkdir(join(home, '.config', 'app'), { recursive: true });
  await symlink(join(home, '.config', 'app'), join(project, 'cfg'));
  await execa('git', ['init', '-q', project]);
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
});
afterAll(() => pipeline.close());

async function decide(
  command: string,
  cwd?: string,
): Promise<{ decision: string; reason: string }> {
  const args = cwd === undefined ? { command } : { command, cwd };
  return pipeline.evaluate(call('shell_exec', args, 'tidy my project'));
}

describe('find -exec with a reader', () => {
  it('runs without a card when the command it runs only reads', async () => {
    for (const command of [
      `find ~/${name} -type f -size +1M -exec du -h {} +`,
      `find ~/${name}/src -name '*.js' -execdir wc -l {} ';'`,
      `find ~/${name} -exec grep -l TODO {} +`,
    ])
      expect(await decide(command), command).toMatchObject({
        decision: 'allow',
        reason: 'read-only: find',
      });
  });

  it('asks when the command writes, runs code, or the tree is the home or a hidden place', async () => {
    for (const command of [
      `find ~/${name} -exec rm {} +`,
      `find ~/${name} -exec sh -c 'cat "$1"' _ {} ';'`,
      `find ~/${name} -exec cp {} /tmp ';'`,
      // The files handed to cat are every file below the root, as grep -r would read them.
      'find ~ -type f -exec cat {} +',
      'find ~/.config -exec cat {} +',
      `find ~/${name}/cfg/ -exec cat {} +`,
      // An action not closed, or {} spliced into another word, is not what it looks like.
      `find ~/${name} -exec cat {}`,
      `find ~/${name} -exec cat {}/../../.netrc ';'`,
      `find ~/${name} -ok cat {} ';'`,
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });
});

describe('a recursive grep limited by a name pattern', () => {
  it('keeps --include=*.js an option whatever the glob would match', async () => {
    await writeFile(join(project, '--include=x.js'), '');
    expect(await decide('grep -rn TODO --include=*.js .', project)).toMatchObject({
      decision: 'allow',
      reason: 'read-only: grep',
    });
    expect(await decide('grep -rn TODO --exclude-dir=node_* src', project)).toMatchObject({
      decision: 'allow',
    });
  });

  it('asks when the glob stands where a path or another option would be', async () => {
    for (const command of [
      'grep -rn TODO --incl=*.js .',
      'grep -rn TODO --file=*.txt .',
      'grep -rn TODO -f*.txt .',
    ])
      expect((await decide(command, project)).decision, command).not.toBe('allow');
  });
});

describe('git -C judged where it runs', () => {
  it('runs a read-only git in another directory without a card', async () => {
    expect(await decide(`git -C ~/${name} status`)).toMatchObject({
      reason: 'read-only: git status',
    });
    expect(await decide(`git -C ~/${name} -C src log --oneline -3`)).toMatchObject({
      decision: 'allow',
    });
  });

  it('judges the rest as the same command would be judged in that directory', async () => {
    expect((await decide(`git -C ~/${name} push`)).decision).toBe('ask');
    expect((await decide(`git -C ~/${name}/cfg grep -n TOKEN`)).decision).toBe(
      (await decide('git grep -n TOKEN', join(project, 'cfg'))).decision,
    );
    expect((await decide('git -C ~/.ssh log')).decision).toBe('deny');
  });

  it('does not fold a directory that is not what it spells, or two directories', async () => {
    for (const command of [
      `git -C "$DIR" status`,
      `git -C ~/${name}/missing status`,
      `git -C ~/${name}/src/../.. log`,
      `git -C ~/${name} status; git -C ~/${name}/src log`,
    ])
      expect((await decide(command)).reason, command).not.toMatch(/^read-only: git/);
  });
});
