// `cd DIR && …`: the rest of a `&&` chain is judged in DIR, as if the model had passed cwd.
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith, writableOf } from './pipeline-helpers.ts';

const intent = 'help me with my project';
let project: string;
let pipeline: Pipeline;

beforeAll(async () => {
  project = await makeTempDir('project-');
  await mkdir(join(project, 'src'));
  await writeFile(join(project, 'src', 'a.txt'), 'a\n');
  await symlink('/etc', join(project, 'etc-link'));
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
});
afterAll(() => pipeline.close());

function decide(command: string): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command }, intent));
}

describe('a leading cd sets where the rest of the line is judged', () => {
  it('runs a read-only line after cd without a card', async () => {
    expect(await decide(`cd ${project} && ls -la src`)).toMatchObject({
      decision: 'allow',
      reason: 'read-only: ls',
    });
    expect(await decide(`pushd ${project}/src && cat a.txt`)).toMatchObject({ decision: 'allow' });
    expect(await decide(`cd ${project} && cd src && wc -l a.txt`)).toMatchObject({
      decision: 'allow',
    });
  });

  it('creates a new file in the cd directory, and only there, in a real run', async () => {
    const outcome = await decide(`cd ${project}/src && echo hello > b.txt`);
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'workspace: echo' });
    expect(writableOf(outcome)).toEqual([join(project, 'src')]);
    expect(await pipeline.invoke(outcome, new AbortController().signal)).toMatchObject({
      ok: true,
      result: { exit_code: 0 },
    });
    expect(await readFile(join(project, 'src', 'b.txt'), 'utf8')).toBe('hello\n');
  });

  it('folds the cd when the last command redirects before a pipe (bash pipes only that command)', async () => {
    for (const command of [
      `cd ${project} && grep -rn a src 2>&1 | tail -20`,
      `cd ${project}/src && ls -la 2>/dev/null | head -5`,
      `cd ${project} && cd src && wc -l a.txt 2>&1 | sort | head -1`,
    ]) {
      expect(await decide(command), command).toMatchObject({ decision: 'allow' });
    }
    const outcome = await decide(`cd ${project}/src && cat a.txt 2>&1 | wc -l`);
    expect(await pipeline.invoke(outcome, new AbortController().signal)).toMatchObject({
      ok: true,
      result: { exit_code: 0, stdout: '1\n' },
    });
    expect(await decide(`cd ${project} || ls 2>&1 | cat`)).toMatchObject({ decision: 'ask' });
    expect(await decide(`cd ${project} && rm -f src/a.txt 2>&1 | cat`)).toMatchObject({
      decision: 'ask',
    });
  });

  it('folds the cd when a middle command redirects (bash redirects only that command)', async () => {
    for (const command of [
      `cd ${project} && echo b >> src/a.txt && wc -l src/a.txt`,
      `cd ${project}/src && echo c > c.txt 2>/dev/null && ls && cat c.txt`,
    ])
      expect(await decide(command), command).toMatchObject({ decision: 'allow' });
    const outcome = await decide(`cd ${project}/src && echo d >> a.txt && cat a.txt`);
    expect(writableOf(outcome)).toEqual([join(project, 'src')]);
    expect(await pipeline.invoke(outcome, new AbortController().signal)).toMatchObject({
      ok: true,
      result: { exit_code: 0, stdout: expect.stringContaining('d\n') },
    });
    expect(await decide(`cd ${project} && echo b >> src/a.txt || rm -f src/a.txt`)).toMatchObject({
      decision: 'ask',
    });
  });

  it('asks when a failed cd would leave the rest running elsewhere', async () => {
    for (const command of [
      `cd ${project} && ls; rm -f src/a.txt`,
      `cd ${project} || ls`,
      // `cd DIR; A` and `cd DIR && A; B` are judged where the rest runs either way
      // (cd-then-sequence.test.ts): a delete asks in both.
      `cd ${project}; rm -f src/a.txt`,
      `cd ${project}/missing && touch new.txt`,
      'cd - && touch new.txt',
      'cd "$DIR" && touch new.txt',
      `cd ${project}/src/../.. && touch new.txt`,
      // A negated cd runs the rest only when it failed; a cd in a subshell moves nothing.
      `! cd ${project} && grep -r TODO .`,
      `(cd ${project}) && grep -r TODO .`,
      `{ cd ${project}; } && grep -r TODO .`,
    ]) {
      expect(await decide(command), command).toMatchObject({ decision: 'ask' });
    }
  });

  it('judges the cd target where its links lead', async () => {
    expect(await decide(`cd ${project}/etc-link && touch x.conf`)).toMatchObject({
      decision: 'ask',
    });
  });

  it('still refuses what the guard forbids in the cd directory', async () => {
    expect(await decide('cd ~/.ssh && cat id_rsa')).toMatchObject({
      decision: 'deny',
      stage: 'guard',
    });
  });
});
