// `cp -r ~/notes ~/notes-backup` is how a model backs up a folder: a tree copied whole runs
// without a card where grep -r could read it (strictly below a write root, never the home,
// nothing protected below it, by name or by where a link leads), to a name that is new.
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const home = process.env.HOME ?? '';
let base: string;
let pipeline: Pipeline;

beforeAll(async () => {
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
  base = await makeTempDir('copies-');
  await mkdir(join(base, 'notes'));
  await writeFile(join(base, 'notes', 'todo.md'), '- milk\n');
  await mkdir(join(base, 'dotfiles'));
  await writeFile(join(base, 'dotfiles', '.netrc'), 'machine x login a password hunter2\n');
  await mkdir(join(base, 'linked'));
  await symlink(join(base, 'dotfiles', '.netrc'), join(base, 'linked', 'netrc'));
  await mkdir(join(base, 'kept', 'notes'), { recursive: true });
});
afterAll(() => pipeline.close());

function decide(command: string): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command }, 'back up my notes'));
}

describe('copying a tree whole', () => {
  it('runs without a card from a ~ or absolute spelling, and copies it, in a real run', async () => {
    const outcome = await decide(`cp -r ${base}/notes ${base}/notes-backup`);
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'workspace: cp' });
    expect(await pipeline.invoke(outcome, new AbortController().signal)).toMatchObject({
      ok: true,
      result: { exit_code: 0 },
    });
    expect(await readFile(join(base, 'notes-backup', 'todo.md'), 'utf8')).toBe('- milk\n');
  });

  it('asks for a tree holding a protected place or a link to one, the home, a hidden or system tree, or a name that exists', async () => {
    for (const command of [
      `cp -r ${base}/dotfiles ${base}/df`,
      `cp -r ${base}/linked ${base}/linked-copy`,
      `cp -r ~ ${base}/home-copy`,
      `cp -r ${home}/.config ${base}/config-copy`,
      'cp -r /etc ~/etc-copy',
      `cp -r ${base}/notes ${base}/kept`,
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });
});
