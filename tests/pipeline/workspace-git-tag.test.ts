// `git tag v1.0.0` and `git tag -a v1.0.0 -m "…"` add a tag: git refuses a name that exists, so no
// tag is lost, and they run without a card. Moving (-f), deleting (-d), signing (-s) and an
// annotated tag with no message (git would open an editor) ask.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';
import { git as gitWithAuthor } from './planted-files.ts';

let project: string;
let pipeline: Pipeline;
const git = (...args: string[]): string => gitWithAuthor('-C', project, ...args);

beforeAll(async () => {
  project = await makeTempDir('tagged-');
  git('init', '-q', '-b', 'main');
  // An annotated tag names its tagger; the sandbox passes no GIT_* variables.
  git('config', 'user.name', 'a');
  git('config', 'user.email', 'a@a');
  await writeFile(join(project, 'a.txt'), 'a\n');
  git('add', 'a.txt');
  git('commit', '-qm', 'first');
  git('tag', 'v0.9');
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
});
afterAll(() => pipeline.close());

function decide(command: string): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command }, 'tag a release'));
}

describe('a new git tag', () => {
  it('runs without a card, through cd or git -C, and the tag exists after a real run', async () => {
    const outcome = await decide(`git -C ${project} tag -a v1.0.0 -m "First release"`);
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'workspace: git tag' });
    expect(await pipeline.invoke(outcome, new AbortController().signal)).toMatchObject({
      ok: true,
      result: { exit_code: 0 },
    });
    expect(git('tag', '-l')).toBe('v0.9\nv1.0.0\n');
    expect(await decide(`cd ${project} && git tag v1.0.1 HEAD`)).toMatchObject({
      decision: 'allow',
    });
  });

  it('cannot move an existing tag: git refuses the name, the tag stays where it was', async () => {
    const before = git('rev-parse', 'v0.9');
    const outcome = await decide(`cd ${project} && git tag v0.9 HEAD`);
    expect(outcome).toMatchObject({ decision: 'allow' });
    const result = await pipeline.invoke(outcome, new AbortController().signal);
    expect(result).toMatchObject({ ok: true });
    expect((result as { result: { exit_code: number } }).result.exit_code).not.toBe(0);
    expect(git('rev-parse', 'v0.9')).toBe(before);
  });

  it('asks to move, delete or sign a tag, or for an annotated tag with no message', async () => {
    for (const command of [
      'git tag -f v0.9',
      'git tag --force v0.9 HEAD',
      'git tag -d v0.9',
      'git tag -s v2 -m signed',
      'git tag -u key v2 -m signed',
      'git tag -a v2',
      'git tag -F notes.txt v2',
      'git tag v2 HEAD extra',
      'git tag -- -f',
    ]) {
      expect(await decide(`cd ${project} && ${command}`), command).toMatchObject({
        decision: 'ask',
      });
    }
  });
});
