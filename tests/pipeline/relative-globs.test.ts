// `du -sh *`, `wc -l *.md` and `mkdir -p DIR && mv *.jpg DIR/` are how models look at and sort
// a folder. A glob that starts with a wildcard is read without a card when no name in the
// working directory could turn into an option; a glob read never reaches, through a link among
// the names it matches, a protected file; and a move into a directory the line makes replaces
// nothing.
import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const home = process.env.HOME ?? '';
let base: string;
let pipeline: Pipeline;

beforeAll(async () => {
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
});
afterAll(() => pipeline.close());

beforeEach(async () => {
  base = await makeTempDir('globs-');
  for (const name of ['todo.md', 'ideas.md', 'IMG_1.jpg', 'IMG_2.jpg'])
    await writeFile(join(base, name), `${name}\n`);
});

function decide(command: string, cwd = base): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command, cwd }, 'look at my folder'));
}

async function stdoutOf(outcome: PipelineOutcome): Promise<string> {
  const result = await pipeline.invoke(outcome, new AbortController().signal);
  expect(result).toMatchObject({ ok: true });
  return result.ok ? String((result.result as { stdout: string }).stdout) : '';
}

describe('a glob of the working directory', () => {
  it('is read without a card, in a real run', async () => {
    const outcome = await decide('wc -l *.md');
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'read-only: wc' });
    expect(await stdoutOf(outcome)).toMatch(/1 ideas\.md\n\s*1 todo\.md/);
    for (const command of [
      'du -sh * | sort -h',
      'ls -la *.jpg',
      'file *',
      `cd ${base} && du -sh *`,
    ])
      expect(
        (await decide(command, home)).decision === 'allow' || command.startsWith('cd'),
        command,
      ).toBe(true);
    expect((await decide(`cd ${base} && du -sh *`, home)).decision).toBe('allow');
  });

  it('asks when a name there could become an option', async () => {
    for (const name of ['-rf', '--files0-from=x', '+5']) {
      const dir = await makeTempDir('globs-option-');
      await writeFile(join(dir, 'a.md'), 'a\n');
      await writeFile(join(dir, name), 'b\n');
      for (const command of ['wc -l *.md', 'du -sh *', 'cat *'])
        expect((await decide(command, dir)).decision, `${name}: ${command}`).not.toBe('allow');
    }
  });

  it('never prints a protected file that a link among the names leads to', async () => {
    const dotfiles = join(home, 'dotfiles-globs');
    await mkdir(dotfiles, { recursive: true });
    await writeFile(join(dotfiles, '.netrc'), 'machine example.com login ana password hunter2\n');
    await symlink(join(dotfiles, '.netrc'), join(base, 'netrc'));
    for (const command of [
      'cat *',
      `cat ${base}/*`,
      'cat ./*',
      'grep password *',
      `head ${base}/n*`,
    ]) {
      const outcome = await decide(command);
      expect(outcome.decision, command).not.toBe('allow');
    }
    expect((await decide('cat *.md')).decision).toBe('allow');
  });
});

describe('moving files into a directory the line makes', () => {
  it('runs without a card and moves them there, in a real run', async () => {
    const outcome = await decide('mkdir -p photos/2026 && mv *.jpg photos/2026/');
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'workspace: mkdir, mv' });
    expect(await stdoutOf(outcome)).toBe('');
    expect((await readdir(join(base, 'photos/2026'))).sort()).toEqual(['IMG_1.jpg', 'IMG_2.jpg']);
  });

  it('asks when the directory is filled by another write of the line, or a file is renamed onto it', async () => {
    await mkdir(join(base, 'album'));
    await writeFile(join(base, 'album', 'IMG_1.jpg'), 'the only copy');
    for (const command of [
      'mv album photos && mv *.jpg photos/',
      'cp -r album photos && mv IMG_1.jpg photos/',
      'mv *.jpg album/',
      'mv IMG_1.jpg album',
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });
});
