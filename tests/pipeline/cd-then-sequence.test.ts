// `cd DIR && A; B`: B runs in DIR when the cd succeeds and where the shell was when it fails, so
// the line runs without a card only when `A; B` would in DIR and `B` would where the shell was.
// A secret beside the shell that B would print there, a write, a second cd, a background job and
// a here-document keep their card.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';
import { git as gitWithAuthor } from './planted-files.ts';

let project: string;
let shellDir: string;
let pipeline: Pipeline;
const git = (...args: string[]): string => gitWithAuthor('-C', project, ...args);

beforeAll(async () => {
  project = await makeTempDir('sequence-');
  shellDir = await makeTempDir('shell-dir-');
  git('init', '-q', '-b', 'main');
  await writeFile(join(project, 'package.json'), '{"name":"app","dependencies":{"a":"1"}}\n');
  await writeFile(join(project, 'notes.txt'), 'plain notes\n');
  git('add', '.');
  git('commit', '-qm', 'first');
  // The same name where the shell is holds a credential: printed only should the cd fail.
  await writeFile(
    join(shellDir, 'notes.txt'),
    'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n',
  );
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
});
afterAll(() => pipeline.close());

function decide(command: string): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command, cwd: shellDir }, 'show me the project'));
}

describe('cd DIR && A; B', () => {
  it('runs in DIR without a card when both parts would, and prints what DIR holds', async () => {
    const outcome = await decide(`cd ${project} && git log --oneline -1; jq .name package.json`);
    expect(outcome).toMatchObject({ decision: 'allow' });
    expect(await pipeline.invoke(outcome, new AbortController().signal)).toMatchObject({
      ok: true,
      result: { exit_code: 0, stdout: expect.stringMatching(/first[\s\S]*"app"/) },
    });
    for (const command of [
      `cd ${project} && ls; wc -l package.json`,
      `cd ${project} && git status --short\ngit log --oneline -1`,
      `cd ${project}; ls; wc -l package.json`,
    ])
      expect((await decide(command)).decision, command).toBe('allow');
  });

  it('asks when B would read a credential where the shell was, should the cd fail', async () => {
    expect((await decide(`cd ${project} && cat notes.txt`)).decision).toBe('allow');
    for (const command of [
      `cd ${project} && ls; cat notes.txt`,
      `cd ${project} && git status; head -1 notes.txt`,
      `cd ${project}; cat notes.txt`,
      `cd ${project}; ls && cat notes.txt`,
    ])
      expect((await decide(command)).decision, command).toBe('ask');
  });

  it('asks for what the same line after cd asks for, a second cd, a background job or a here-document', async () => {
    for (const command of [
      `cd ${project} && ls; rm -f package.json`,
      `cd ${project} && ls; git push`,
      `cd ${project} && ls; cd ${shellDir}; ls`,
      `cd ${project} && ls & wc -l notes.txt`,
      `cd ${project} && ls; cat <<'E'\nhi\nE`,
      `cd ${project}; ls || cat notes.txt`,
      `cd ${project}; rm -f package.json`,
      `cd $DIR && ls; ls`,
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });
});
