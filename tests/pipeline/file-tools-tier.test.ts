// The file tools in the workspace tier: what their shell twins may do without a card, they may
// too (a new file or directory; a rewrite git can undo), recorded as unreviewed; the rest asks.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';
import { git } from './planted-files.ts';

const intent = 'keep my notes and my project tidy';
let pipeline: Pipeline;
let notes: string;
let project: string;

beforeAll(async () => {
  notes = await makeTempDir('notes-');
  await writeFile(join(notes, 'budget.csv'), 'rent,900\n');
  project = await makeTempDir('project-');
  execFileSync('git', ['init', '-q', project]);
  await writeFile(join(project, 'README.md'), '# app\n');
  await writeFile(join(project, 'changed.md'), 'one\n');
  await writeFile(join(project, '.gitignore'), 'build.log\n');
  await writeFile(join(project, 'build.log'), 'log\n');
  git('-C', project, 'add', 'README.md', 'changed.md', '.gitignore');
  git('-C', project, 'commit', '-qm', 'start');
  await writeFile(join(project, 'changed.md'), 'one, edited by hand\n');
  await writeFile(join(project, 'untracked.md'), 'mine\n');
  pipeline = await pipelineWith({ roots: { write: ['~'] } });
});
afterAll(() => pipeline.close());

function decide(executor: string, args: Record<string, unknown>): Promise<PipelineOutcome> {
  return pipeline.evaluate(call(executor, args, intent));
}

async function runs(outcome: PipelineOutcome): Promise<void> {
  expect(await pipeline.invoke(outcome, new AbortController().signal)).toMatchObject({ ok: true });
}

describe('file tools without a card', () => {
  it('creates a new file and records it as unreviewed', async () => {
    const path = join(notes, 'groceries.md');
    const outcome = await decide('fs_write', { path, content: '- milk\n' });
    expect(outcome).toMatchObject({
      decision: 'allow',
      reason: 'workspace: new file',
      grant: { by: 'tier', tier: 'workspace', records: [path], replaces: false },
    });
    await runs(outcome);
    expect(await readFile(path, 'utf8')).toBe('- milk\n');
  });

  it('creates a new directory, and a new file in a new directory', async () => {
    await runs(await decide('fs_mkdir', { path: join(notes, 'trips') }));
    const nested = join(notes, 'recipes', 'soup.md');
    const outcome = await decide('fs_write', { path: nested, content: 'x', create_dirs: true });
    expect(outcome).toMatchObject({ decision: 'allow' });
    await runs(outcome);
  });

  it('rewrites a file git tracks and holds unmodified, and git gives it back', async () => {
    const path = join(project, 'README.md');
    const outcome = await decide('fs_edit', { path, old_text: '# app', new_text: '# App' });
    expect(outcome).toMatchObject({
      decision: 'allow',
      reason: 'workspace: a file git can give back',
      grant: { replaces: true, records: [path] },
    });
    await runs(outcome);
    expect(await readFile(path, 'utf8')).toBe('# App\n');
    git('-C', project, 'checkout', '--', 'README.md');
    expect(await readFile(path, 'utf8')).toBe('# app\n');
  });

  it('asks to overwrite what git could not give back, to delete, or to write where a new file changes what runs', async () => {
    for (const [executor, args] of [
      ['fs_write', { path: join(notes, 'budget.csv'), content: 'gone' }],
      ['fs_edit', { path: join(project, 'changed.md'), old_text: 'one', new_text: 'two' }],
      ['fs_write', { path: join(project, 'untracked.md'), content: 'gone' }],
      ['fs_write', { path: join(project, 'build.log'), content: 'gone' }],
      ['fs_delete', { path: join(project, 'README.md') }],
      ['fs_write', { path: '~/.profile_extra', content: 'x' }],
      ['fs_write', { path: '~/bin/ls', content: 'x', create_dirs: true }],
      ['fs_write', { path: join(project, '.git', 'hooks', 'pre-commit'), content: 'x' }],
      ['fs_mkdir', { path: '~' }],
      ['fs_write', { path: '~/straight-into-home.txt', content: 'x' }],
      ['fs_mkdir', { path: '~/new-top-level-folder' }],
    ] as const) {
      expect(await decide(executor, args), `${executor} ${JSON.stringify(args)}`).toMatchObject({
        decision: 'ask',
      });
    }
  });

  it('never replaces a file that appeared between the decision and the run', async () => {
    const path = join(notes, 'race.md');
    const outcome = await decide('fs_write', { path, content: 'from the model' });
    expect(outcome).toMatchObject({ decision: 'allow', grant: { replaces: false } });
    await writeFile(path, 'the person wrote this first');
    const ran = await pipeline.invoke(outcome, new AbortController().signal);
    expect(ran.ok).toBe(false);
    expect(await readFile(path, 'utf8')).toBe('the person wrote this first');
  });

  it('never overwrites work the person saved in a tracked file after the decision', async () => {
    const path = join(project, 'README.md');
    const outcome = await decide('fs_write', { path, content: '# from the model\n' });
    expect(outcome).toMatchObject({ decision: 'allow', grant: { replaces: true } });
    await writeFile(path, '# the person saved this after the decision\n');
    const ran = await pipeline.invoke(outcome, new AbortController().signal);
    expect(ran).toMatchObject({ ok: false, error: { name: 'PermissionDenied' } });
    expect(await readFile(path, 'utf8')).toBe('# the person saved this after the decision\n');
    git('-C', project, 'checkout', '--', 'README.md');
  });

  it('makes project code run read-only while a file tool write is unreviewed', async () => {
    await mkdir(join(project, 'src'), { recursive: true });
    await runs(await decide('fs_write', { path: join(project, 'src', 'new.js'), content: '1' }));
    const make = await pipeline.evaluate(
      call('shell_exec', { command: 'make', cwd: project }, intent),
    );
    expect(make).toMatchObject({ grant: { tier: 'read-only-code', writable: [] } });
    expect(make.reason).toMatch(/unreviewed: src\/new\.js/);
  });
});
