// `mkdir -p ~/Pictures/2026 && cp ~/Downloads/IMG_*.jpg ~/Pictures/2026/`: a glob that cp reads is
// judged by the read check as a read-only command's glob is (every name it matches now, where its
// links lead, strictly below a write root, nothing hidden), and each copy must be a new name.
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

let base: string;
let pipeline: Pipeline;

beforeAll(async () => {
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
  base = await makeTempDir('globs-');
  await mkdir(join(base, 'Downloads'));
  for (const name of ['IMG_1.jpg', 'IMG_2.jpg']) {
    await writeFile(join(base, 'Downloads', name), name);
  }
  await mkdir(join(base, 'dotfiles'));
  await writeFile(join(base, 'dotfiles', '.netrc'), 'machine x login a password hunter2\n');
  await mkdir(join(base, 'linked'));
  await writeFile(join(base, 'linked', 'a.txt'), 'a\n');
  await symlink(join(base, 'dotfiles', '.netrc'), join(base, 'linked', 'b.txt'));
  await mkdir(join(base, 'taken'));
  await writeFile(join(base, 'taken', 'IMG_2.jpg'), 'keep me');
});
afterAll(() => pipeline.close());

function decide(command: string): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command }, 'copy my photos'));
}

describe('copying what a glob matches', () => {
  it('runs without a card into a new directory, and copies every match, in a real run', async () => {
    const outcome = await decide(
      `mkdir -p ${base}/Pictures/2026 && cp -v ${base}/Downloads/IMG_*.jpg ${base}/Pictures/2026/`,
    );
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'workspace: mkdir, cp' });
    expect(await pipeline.invoke(outcome, new AbortController().signal)).toMatchObject({
      ok: true,
      result: { exit_code: 0 },
    });
    expect(await readFile(join(base, 'Pictures', '2026', 'IMG_2.jpg'), 'utf8')).toBe('IMG_2.jpg');
  });

  it('asks when a match leads to a protected file, when a copy would replace a file, or a glob names a hidden place', async () => {
    for (const command of [
      `mkdir -p ${base}/out && cp ${base}/linked/*.txt ${base}/out/`,
      `cp ${base}/Downloads/IMG_*.jpg ${base}/taken/`,
      `mkdir -p ${base}/out && cp ${base}/dotfiles/.n* ${base}/out/`,
      `mkdir -p ${base}/out && cp ${base}/*/IMG_1.jpg ${base}/out/`,
    ]) {
      expect((await decide(command)).decision, command).not.toBe('allow');
    }
    expect(await readFile(join(base, 'taken', 'IMG_2.jpg'), 'utf8')).toBe('keep me');
  });
});
