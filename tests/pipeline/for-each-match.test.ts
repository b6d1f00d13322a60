// `for f in *.jpg; do mv "$f" "photo-$f"; done`: a loop over the files a glob matches is judged
// as its unrolled iterations; it runs without a card only when every iteration, and all of them
// together, would.
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const home = process.env.HOME ?? '';
const SECRET = 'FAKE-PRIVATE-KEY-do-not-leak';
let base: string;
let pipeline: Pipeline;

beforeAll(async () => {
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
  await mkdir(join(home, '.ssh'), { recursive: true });
  await writeFile(join(home, '.ssh', 'id_ed25519'), `${SECRET}\n`);
  base = await makeTempDir('loops-');
  for (const dir of ['photos', 'notes', 'linked', 'taken', 'odd', 'many'])
    await mkdir(join(base, dir));
  for (const name of ['a.jpg', 'b c.jpg']) await writeFile(join(base, 'photos', name), name);
  for (const name of ['one.md', 'two.md']) await writeFile(join(base, 'notes', name), 'x\ny\n');
  await writeFile(join(base, 'linked', 'ok.txt'), 'fine\n');
  await symlink(join(home, '.ssh', 'id_ed25519'), join(base, 'linked', 'key.txt'));
  for (const name of ['a.jpg', 'photo-a.jpg']) await writeFile(join(base, 'taken', name), name);
  await writeFile(join(base, 'odd', "it's.md"), 'quote\n');
  for (let i = 0; i < 210; i += 1) await writeFile(join(base, 'many', `${String(i)}.md`), '');
});
afterAll(() => pipeline.close());

function decide(command: string, dir: string): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command, cwd: join(base, dir) }, 'tidy my files'));
}

describe('a loop over the files a glob matches', () => {
  it('renames each match to a new name without a card, in a real run', async () => {
    const outcome = await decide('for f in *.jpg; do mv "$f" "photo-$f"; done', 'photos');
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'workspace: for each of 2: mv' });
    expect(await pipeline.invoke(outcome, new AbortController().signal)).toMatchObject({
      ok: true,
      result: { exit_code: 0 },
    });
    expect((await readdir(join(base, 'photos'))).sort()).toEqual(['photo-a.jpg', 'photo-b c.jpg']);
  });

  it('runs a body that is one && chain of commands without a card', async () => {
    const outcome = await decide(
      'for f in *.md; do wc -l "$f" && echo "counted $f"; done',
      'notes',
    );
    expect(outcome).toMatchObject({
      decision: 'allow',
      reason: 'read-only: for each of 2: wc, echo',
    });
    const result = await pipeline.invoke(outcome, new AbortController().signal);
    expect(JSON.stringify(result)).toContain('counted two.md');
  });

  it('reads each match without a card', async () => {
    const outcome = await decide('for f in *.md; do wc -l "$f"; done', 'notes');
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'read-only: for each of 2: wc' });
    const result = await pipeline.invoke(outcome, new AbortController().signal);
    expect(JSON.stringify(result)).toContain('2 one.md');
  });
});

describe('loops that ask', () => {
  it('asks when an iteration would replace a file, or all of them one name', async () => {
    expect((await decide('for f in *.jpg; do mv "$f" "photo-$f"; done', 'taken')).decision).toBe(
      'ask',
    );
    expect((await decide('for f in *.md; do cp "$f" all.md; done', 'notes')).decision).toBe('ask');
    expect((await decide('for f in *.md; do rm "$f"; done', 'notes')).decision).toBe('ask');
  });

  it('never reads a match that leads to a protected place', async () => {
    const outcome = await decide('for f in *.txt; do cat "$f"; done', 'linked');
    expect(outcome.decision).not.toBe('allow');
  });

  it('asks for names it cannot paste exactly, other expansions, bodies of several commands, no match or too many', async () => {
    for (const [command, dir] of [
      ['for f in *.md; do wc -l "$f"; done', 'odd'],
      ['for f in *.md; do mv "$f" "${f%.md}.txt"; done', 'notes'],
      ['for f in $(ls); do wc -l "$f"; done', 'notes'],
      ['for f in *.md; do wc -l "$f"; wc -c "$f"; done', 'notes'],
      ['for f in *.md; do wc -l "$f" || rm "$f"; done', 'notes'],
      ['for f in *.md; do cd .. && wc -l "$f"; done', 'notes'],
      ['for f in *.md; do cp "$f" ../taken/ && rm "$f"; done', 'notes'],
      ['for f in *.png; do wc -l "$f"; done', 'notes'],
      ['for f in *.md; do wc -l "$f"; done', 'many'],
      ['for f in *.md; do wc -l "$f" > "$f.count"; done > /dev/null', 'notes'],
      ['for f in *.md; do echo "$f" >> ~/.bashrc; done', 'notes'],
    ] as const)
      expect((await decide(command, dir)).decision, command).not.toBe('allow');
  });

  it('leaves the keys alone whatever the loop', async () => {
    expect(await readFile(join(home, '.ssh', 'id_ed25519'), 'utf8')).toBe(`${SECRET}\n`);
  });
});
