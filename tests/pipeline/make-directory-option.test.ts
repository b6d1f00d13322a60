// `make -C DIR` runs DIR's Makefile from wherever the shell is, as `cd DIR && make` does: the line
// is judged as the runner in DIR (directory-option.ts). What the same line after `cd DIR &&` asks
// for still asks: another Makefile, variables that change the recipes, a write before the run,
// two directories, a relative redirect, a directory outside any work tree that holds a secret.
import { access, writeFile } from 'node:fs/promises';
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
  project = await makeTempDir('make-dir-');
  other = await makeTempDir('make-other-');
  git('init', '-q', '-b', 'main');
  await writeFile(join(project, 'Makefile'), 'build:\n\techo built > out.txt\n');
  await writeFile(join(project, '.gitignore'), 'out.txt\n');
  git('add', 'Makefile', '.gitignore');
  git('commit', '-qm', 'first');
  await writeFile(join(other, 'Makefile'), 'build:\n\techo other\n');
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
});
afterAll(() => pipeline.close());

function decide(command: string): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command }, 'build the project'));
}

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

describe('make -C DIR', () => {
  it('prints the recipes of a dry run without a card, and writes nothing', async () => {
    const outcome = await decide(`make -C ${project} -n build`);
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'workspace: make' });
    expect(await pipeline.invoke(outcome, new AbortController().signal)).toMatchObject({
      ok: true,
      result: { exit_code: 0, stdout: expect.stringContaining('echo built > out.txt') },
    });
    expect(await exists(join(project, 'out.txt'))).toBe(false);
  });

  it('builds in DIR without a card, as cd DIR && make does', async () => {
    const outcome = await decide(`make -C ${project} build`);
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'workspace: make' });
    expect((await decide(`cd ${project} && make build`)).decision).toBe('allow');
    expect(await pipeline.invoke(outcome, new AbortController().signal)).toMatchObject({
      ok: true,
      result: { exit_code: 0 },
    });
    expect(await exists(join(project, 'out.txt'))).toBe(true);
  });

  it('asks for what the same make after cd asks for', async () => {
    for (const rest of [
      'build CC=evil',
      '-f /var/tmp/evil.mk build',
      '-e build',
      'build && git commit -am built',
      'build && rm -f Makefile',
    ]) {
      expect((await decide(`make -C ${project} ${rest}`)).decision, rest).toBe('ask');
      expect((await decide(`cd ${project} && make ${rest}`)).decision, rest).toBe('ask');
    }
  });

  it('keeps the line as given for a write before it, two directories, a relative redirect or a variable', async () => {
    for (const command of [
      `echo 'build:; rm -rf ~' > ${project}/Makefile && make -C ${project} build`,
      `make -C ${project} build && make -C ${other} build`,
      `make -C ${project} build && git -C ${other} status`,
      `make -C ${project} build > build.log`,
      `make -C ${project} build 2>&1 | tee build.log`,
      'make -C $PROJECT build',
      `make -C ${project}/nowhere build`,
      'make -C ~/.ssh',
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });

  it('judges the home or a system directory named by -C as the same line after cd', async () => {
    for (const dir of ['~', '/etc']) {
      const { decision, reason } = await decide(`cd ${dir} && make build`);
      expect(await decide(`make -C ${dir} build`), dir).toMatchObject({ decision, reason });
    }
  });
});

describe('make -n, a dry run', () => {
  // GNU make still runs a dry run's `+` recipe lines, those naming $(MAKE), and every $(shell …)
  // while it reads the Makefile: the person asked to change nothing, so nothing is writable.
  it('loses no file to the recipe lines a dry run still runs', async () => {
    const dry = await makeTempDir('make-dry-');
    gitWithAuthor('init', '-q', dry);
    await writeFile(
      join(dry, 'Makefile'),
      'X := $(shell echo > parsed.txt)\nbuild:\n\t+rm -f data.txt\n',
    );
    await writeFile(join(dry, 'data.txt'), 'my uncommitted notes\n');
    for (const command of [`make -C ${dry} -n build`, `cd ${dry} && make --dry-run build`]) {
      const outcome = await decide(command);
      expect(outcome, command).toMatchObject({
        decision: 'allow',
        grant: { by: 'tier' },
      });
      expect(await pipeline.invoke(outcome, new AbortController().signal)).toMatchObject({
        ok: true,
      });
      expect(await exists(join(dry, 'data.txt')), command).toBe(true);
      expect(await exists(join(dry, 'parsed.txt')), command).toBe(false);
    }
  });
});
