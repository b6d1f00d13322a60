// `jq … package.json > package.json.tmp && mv package.json.tmp package.json`: an in-place edit
// in two steps, run without a card only when git can give the replaced file back and the first
// step only reads. An untracked or changed file, a file elsewhere, an existing temporary file,
// a writing first step, or another directory ask.
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { hasProgram } from '../helpers/tools.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';
import { git as gitWithAuthor } from './planted-files.ts';

const home = process.env.HOME ?? '';
let project: string;
let pipeline: Pipeline;
const git = (...args: string[]): string => gitWithAuthor('-C', project, ...args);

beforeAll(async () => {
  project = await makeTempDir('rewrite-');
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'a');
  git('config', 'user.email', 'a@a');
  await writeFile(join(project, 'package.json'), '{"version":"1.0.0"}\n');
  await writeFile(join(project, 'names.txt'), 'b\na\n');
  await mkdir(join(project, 'sub'));
  await writeFile(join(project, 'sub', 'kept.txt'), 'kept\n');
  git('add', '-A');
  git('commit', '-qm', 'first');
  await writeFile(join(project, 'untracked.txt'), 'keep me\n');
  await writeFile(join(project, 'leftover.tmp'), 'old\n');
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
});
afterAll(() => pipeline.close());

function decide(command: string): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command, cwd: project }, 'bump the version'));
}

describe('a rewrite through a new file moved over the original', () => {
  it.skipIf(!hasProgram('jq'))('runs without a card and rewrites only that file', async () => {
    const outcome = await decide(
      `jq -c '.version = "1.0.1"' package.json > package.json.tmp && mv package.json.tmp package.json && git diff --stat`,
    );
    expect(outcome).toMatchObject({ decision: 'allow', grant: { tier: 'workspace' } });
    expect(await pipeline.invoke(outcome, new AbortController().signal)).toMatchObject({
      ok: true,
      result: { exit_code: 0 },
    });
    expect(await readFile(join(project, 'package.json'), 'utf8')).toBe('{"version":"1.0.1"}\n');
    expect(git('status', '--short')).toBe(' M package.json\n?? leftover.tmp\n?? untracked.txt\n');
  });

  it.skipIf(!hasProgram('jq'))(
    'never leaves behind a new file the workspace could not make: a failed first step keeps it',
    async () => {
      // jq prints, then fails: mv never runs and the new file stays, its text the command's
      // choice. A `.git` file naming another git directory would run that one's config later.
      for (const [command, left] of [
        [
          `jq -nr '"gitdir: /nowhere", error("x")' > sub/.git && mv sub/.git sub/kept.txt`,
          'sub/.git',
        ],
        [`jq -nr '"echo hi", error("x")' > .envrc && mv .envrc names.txt`, '.envrc'],
      ] as const) {
        const outcome = await decide(command);
        if (outcome.decision === 'allow')
          await pipeline.invoke(outcome, new AbortController().signal);
        await expect(readFile(join(project, left), 'utf8'), command).rejects.toThrow();
        expect(outcome.decision, command).not.toBe('allow');
      }
    },
  );

  it('records the new file with the replaced one: left behind, it is an unreviewed write', async () => {
    const outcome = await decide('sort names.txt > sorted.tmp && mv sorted.tmp names.txt');
    expect(outcome).toMatchObject({ decision: 'allow' });
    const grant = outcome.decision === 'allow' ? outcome.grant : undefined;
    const written = grant?.by === 'tier' ? grant.records : [];
    expect(written).toEqual(
      expect.arrayContaining([join(project, 'names.txt'), join(project, 'sorted.tmp')]),
    );
  });

  it('never replaces a file named through a link and `..`: the kernel climbs from the link', async () => {
    // lnk/../names.txt reads as the tracked names.txt, but lnk leads into deep/inner, so the
    // kernel opens deep/names.txt: an untracked file git cannot give back.
    await mkdir(join(project, 'deep', 'inner'), { recursive: true });
    await writeFile(join(project, 'deep', 'names.txt'), 'precious a\n');
    await symlink('deep/inner', join(project, 'lnk'));
    for (const command of [
      'sort names.txt > names.txt.new && mv names.txt.new lnk/../names.txt',
      'sed -i s/a/b/ lnk/../names.txt',
    ]) {
      const outcome = await decide(command);
      if (outcome.decision === 'allow')
        await pipeline.invoke(outcome, new AbortController().signal);
      expect(await readFile(join(project, 'deep', 'names.txt'), 'utf8'), command).toBe(
        'precious a\n',
      );
      expect(outcome.decision, command).not.toBe('allow');
    }
  });

  it('asks when git cannot give the file back, or the steps do anything else', async () => {
    for (const command of [
      'sort names.txt > s.tmp && mv s.tmp untracked.txt',
      'sort package.json > s.tmp && mv s.tmp package.json',
      'sort names.txt > leftover.tmp && mv leftover.tmp names.txt',
      'sort names.txt > s.tmp && mv -f s.tmp names.txt',
      'sort names.txt >> s.tmp && mv s.tmp names.txt',
      'sort names.txt > s.tmp && mv s.tmp names.txt && rm untracked.txt',
      'sort names.txt > s.tmp; mv s.tmp names.txt',
      `sort names.txt > ${home}/s.tmp && mv ${home}/s.tmp names.txt`,
      `cat ${home}/.ssh/id_ed25519 > s.tmp && mv s.tmp names.txt`,
      'curl -s https://example.com > s.tmp && mv s.tmp names.txt',
      'sort -o other.txt names.txt > s.tmp && mv s.tmp names.txt',
      'sort names.txt > s.tmp && mv s.tmp .git/config',
      'sort names.txt > s.tmp && mv s.tmp sub',
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
    expect(await readFile(join(project, 'untracked.txt'), 'utf8')).toBe('keep me\n');
  });
});
