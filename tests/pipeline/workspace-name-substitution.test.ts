// `$(date +%F)` in a file name: a substitution that prints one plain name is judged as the glob
// of its output (`????-??-??`), so a dated note, log or backup runs without a card when no name
// it could become is already there. Any other substitution keeps the line on a card.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

let base: string;
let pipeline: Pipeline;
const today = (): string => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
});
afterAll(() => pipeline.close());

beforeEach(async () => {
  base = await makeTempDir('dated-');
  await mkdir(join(base, 'notes'));
  await writeFile(join(base, 'notes', 'todo.md'), '- milk\n');
});

function decide(command: string): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command, cwd: base }, 'keep my journal'));
}

async function run(command: string): Promise<void> {
  const outcome = await decide(command);
  expect(outcome, command).toMatchObject({ decision: 'allow' });
  expect(await pipeline.invoke(outcome, new AbortController().signal)).toMatchObject({
    ok: true,
    result: { exit_code: 0 },
  });
}

describe('a dated name made by a substitution', () => {
  it('creates a dated note in a new folder, then appends to it, in real runs', async () => {
    await run('mkdir -p journal && echo "# $(date -u +%F)" > journal/$(date -u +%F).md');
    await run('echo "- started" >> journal/$(date -u +%F).md');
    expect(await readdir(join(base, 'journal'))).toEqual([`${today()}.md`]);
    expect(await readFile(join(base, 'journal', `${today()}.md`), 'utf8')).toBe(
      `# ${today()}\n- started\n`,
    );
  });

  it('creates a dated archive of a folder named from -C, in a real run', async () => {
    await run('mkdir -p backups && tar -czf backups/notes-$(date -u +%F).tar.gz -C . notes');
    expect(await readdir(join(base, 'backups'))).toEqual([`notes-${today()}.tar.gz`]);
  });

  it('asks when a name it could become is there already', async () => {
    await writeFile(join(base, 'notes', '1999-01-01.md'), 'an old entry');
    expect((await decide('echo hi > notes/$(date +%F).md')).decision).toBe('ask');
    // Names of another shape are no obstacle; one of the same length is (????.md is todo.md).
    expect((await decide('echo hi > notes/$(date +%Y-%m).md')).decision).toBe('allow');
    expect((await decide('echo hi > notes/$(date +%Y).md')).decision).toBe('ask');
  });

  it('asks for substitutions that print more than a name, or stand as a command', async () => {
    for (const command of [
      'echo hi > notes/$(date +%D).md',
      'echo hi > notes/$(date +.%F)',
      'echo hi > notes/$(date).md',
      'echo hi > notes/$(date +%F; touch x).md',
      'echo hi > notes/$(date -s 2020-01-01 +%F).md',
      'echo hi > notes/$(cat notes/todo.md).md',
      'echo hi > notes/$(pwd).md',
      '$(date +%F) notes',
      'X=$(date +%F) touch notes/x',
      "bash -c 'echo hi > notes/$(date +%F).md'",
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });

  it('reads a dated file without a card, never a protected one', async () => {
    expect((await decide('cat notes/$(date +%F).md')).decision).toBe('allow');
    expect((await decide('cat ~/.ssh/$(whoami)')).decision).toBe('deny');
  });
});
