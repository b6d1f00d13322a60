// `cp -r ~/notes ~/notes-backup`, `zip -r ~/notes.zip ~/notes`, `tar czf n.tgz ~/notes` are how
// a model backs up a folder: a tree copied or archived whole runs without a card where grep -r
// could read it (strictly below a write root, never the home,
// nothing protected below it, by name or by where a link leads), to a name that is new.
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { hasProgram } from '../helpers/tools.ts';
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

describe.skipIf(!hasProgram('zip', '-v'))('archiving a tree whole (needs zip)', () => {
  it('makes a new archive of a ~ or absolute tree, in a real run', async () => {
    const outcome = await decide(`zip -qr ${base}/notes.zip ${base}/notes`);
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'workspace: zip' });
    expect(await pipeline.invoke(outcome, new AbortController().signal)).toMatchObject({
      ok: true,
      result: { exit_code: 0 },
    });
    const listing = await decide(`unzip -l ${base}/notes.zip`);
    const result = await pipeline.invoke(listing, new AbortController().signal);
    expect(result.ok && String((result.result as { stdout: string }).stdout)).toContain('todo.md');
    expect((await decide(`tar czf ${base}/notes.tgz ${base}/notes`)).decision).toBe('allow');
  });

  it('asks for a protected tree, an existing archive, a name zip would change, or options that move or run', async () => {
    for (const command of [
      `zip -r ${base}/d.zip ${base}/dotfiles`,
      `zip -r ${base}/l.zip ${base}/linked`,
      `tar czf ${base}/d.tgz ${base}/dotfiles`,
      `zip -r ${base}/notes.zip ${base}/notes`,
      `zip -r ${base}/notes-archive ${base}/notes`,
      `zip -m ${base}/m.zip ${base}/notes/todo.md`,
      `zip -TT "sh -c id" ${base}/t.zip ${base}/notes/todo.md`,
      `zip -r ${base}/h.zip ~`,
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });
});
