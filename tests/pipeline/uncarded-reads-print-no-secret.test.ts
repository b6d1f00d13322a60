// What a read without a card prints: never a secret, wherever it lives and whatever a program
// makes of its operands. Driven through the real pipeline, and each line the pipeline allows is
// run for real in the sandbox, in a home of planted secrets outside the usual stores.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const intent = 'help me with my files';
/** A store below the home's top level: the guard forbids it by name, no sandbox mask hides it. */
const NESTED_NETRC = 'FAKE-NESTED-NETRC-PASSWORD';
let root: string;
let pipeline: Pipeline;

async function plant(path: string, content: string): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, content);
}

beforeEach(async () => {
  root = await makeTempDir('reads-');
  await plant(join(root, 'dotfiles', '.netrc'), `machine x password ${NESTED_NETRC}\n`);
  await plant(join(root, 'dotfiles', 'aliases'), 'alias ll=ls\n');
  await plant(join(root, 'notes', 'todo.md'), '# todo\n');
  await plant(join(root, 'notes', 'plan.txt'), 'plan\n');
  await plant(join(root, 'Documents', 'todo.md'), '# old todo\n');
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
});
afterEach(() => {
  pipeline.close();
});

function decide(command: string, cwd = root): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command, cwd }, intent));
}

/** Runs the command if a tier allowed it; returns what it printed ('' when it needed a card). */
async function runIfUncarded(command: string, cwd = root): Promise<string> {
  const outcome = await decide(command, cwd);
  if (outcome.decision !== 'allow') return '';
  return JSON.stringify(await pipeline.invoke(outcome, new AbortController().signal));
}

describe('a directory that a comparing program opens inside', () => {
  it('is read as the tree it is: diff of two directories prints no protected file in either', async () => {
    const notes = join(root, 'notes');
    for (const [command, cwd] of [
      ['diff -N dotfiles notes', root],
      ['diff -Nu dotfiles/ notes/', root],
      ['diff --new-file notes dotfiles', root],
      ['diff --unidirectional-new-file dotfiles notes', root],
      ['diff -N -x todo.md -- dotfiles notes', root],
      ['diff -N --from-file dotfiles notes', root],
      ['diff -N --to-file=notes dotfiles', root],
      ['diff -N d*s notes', root],
      ['diff -N dotfile? notes', root],
      ['diff -N ../dotfiles .', notes],
      [`diff -N ${root}/dotfiles .`, notes],
    ] as const) {
      expect((await decide(command, cwd)).decision, command).not.toBe('allow');
      expect(await runIfUncarded(command, cwd), command).not.toContain(NESTED_NETRC);
    }
  });

  it('still compares ordinary files and folders without a card', async () => {
    for (const command of [
      'diff -u notes/todo.md Documents/todo.md',
      'diff -u Documents notes',
      'diff notes/plan.txt /etc/hostname',
    ])
      expect((await decide(command)).decision, command).toBe('allow');
    expect(await runIfUncarded('diff -u Documents notes')).toContain('old todo');
  });
});
