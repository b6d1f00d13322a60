// `git init newproj` makes a directory that did not exist and fills only its .git: it runs
// without a card. A repository over an existing directory (the home, a project) is a card:
// every file below becomes what `git add -A` stages.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { exists } from '../helpers/exists.ts';
import { call, pipelineWith, writableOf } from './pipeline-helpers.ts';

let projects: string;
let pipeline: Pipeline;

beforeAll(async () => {
  projects = await makeTempDir('projects-');
  await mkdir(join(projects, 'existing'));
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
});
afterAll(() => pipeline.close());

function decide(command: string): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command }, 'start a new project'));
}

describe('git init of a new directory', () => {
  it('runs without a card and makes the repository, in a real run', async () => {
    const outcome = await decide(`cd ${projects} && git init -b main newproj`);
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'workspace: git init' });
    expect(writableOf(outcome)).toEqual([projects]);
    expect(await pipeline.invoke(outcome, new AbortController().signal)).toMatchObject({
      ok: true,
      result: { exit_code: 0 },
    });
    expect(await exists(join(projects, 'newproj', '.git', 'HEAD'))).toBe(true);
  });

  it('asks for an existing directory, the working directory, a hidden one, or other layouts', async () => {
    for (const command of [
      `git init ${projects}/existing`,
      `cd ${projects}/existing && git init`,
      `git init ${projects}/.dotfiles`,
      `git init --template=${projects} ${projects}/fresh`,
      `git init --separate-git-dir=${projects}/g ${projects}/fresh`,
      `git init --bare ${projects}/fresh`,
      `git init ${projects}/a ${projects}/b`,
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });
});
