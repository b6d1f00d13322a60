// `sed -i 's/old/new/g' FILE` and `perl -pi -e 's/old/new/' FILE` are the shell's fs_edit: they
// run without a card only on files git can give back (tracked, unmodified, inside roots.write,
// not hidden or protected), with a script that only substitutes, and the run asks git again.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import {
  isPerlSubstitution,
  isSedSubstitution,
} from '../../runtime/pipeline/tiers/substitution-script.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const home = process.env.HOME ?? '';
const SECRET = 'FAKE-PRIVATE-KEY-do-not-leak';
let repo: string;
let pipeline: Pipeline;

function git(...args: string[]): void {
  execFileSync('git', ['-C', repo, ...args], { stdio: 'ignore' });
}

beforeAll(async () => {
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
  await mkdir(join(home, '.ssh'), { recursive: true });
  await writeFile(join(home, '.ssh', 'id_ed25519'), `${SECRET}\n`);
  repo = await makeTempDir('sed-');
  execFileSync('git', ['init', '-q', repo]);
  await mkdir(join(repo, 'src'));
  await mkdir(join(repo, '.github'));
  for (const name of ['src/app.js', 'src/util.js', 'README.md', 'dirty.md', '.github/ci.yml'])
    await writeFile(join(repo, name), 'const foo = 1; // foo\n');
  await symlink(join(home, '.ssh', 'id_ed25519'), join(repo, 'key'));
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
  await writeFile(join(repo, 'dirty.md'), 'unsaved work\n');
  await writeFile(join(repo, 'untracked.md'), 'foo\n');
});
afterAll(() => pipeline.close());

function decide(command: string): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command, cwd: repo }, 'rename foo to bar'));
}

async function run(outcome: PipelineOutcome): Promise<unknown> {
  return pipeline.invoke(outcome, new AbortController().signal);
}

describe('an in-place substitution of a file git can give back', () => {
  it('runs `sed -i` without a card and rewrites the file, in a real run', async () => {
    const outcome = await decide("sed -i 's/foo/bar/g' src/app.js");
    expect(outcome).toMatchObject({
      decision: 'allow',
      reason: 'workspace: sed -i: a file git can give back',
    });
    expect(await run(outcome)).toMatchObject({ ok: true, result: { exit_code: 0 } });
    expect(await readFile(join(repo, 'src', 'app.js'), 'utf8')).toBe('const bar = 1; // bar\n');
    expect(await readFile(join(home, '.ssh', 'id_ed25519'), 'utf8')).toBe(`${SECRET}\n`);
    // Modified now: git could no longer give the person's edit back.
    expect((await decide("sed -i 's/bar/baz/' src/app.js")).decision).toBe('ask');
  });

  it('runs `perl -pi -e` and several sed scripts or files the same way', async () => {
    for (const command of [
      "perl -pi -e 's/foo/bar/g' README.md",
      "perl -p -i -e 's/(\\w+) = 1/$1 = 2/' README.md",
      "sed -i -e 's/foo/bar/' -e 's|// foo|// bar|' README.md src/util.js",
      "sed -Ei '1s/fo+/bar/g' README.md",
    ])
      expect(await decide(command), command).toMatchObject({ decision: 'allow' });
  });

  it('refuses to run when the file changed after the decision', async () => {
    const outcome = await decide("sed -i 's/foo/bar/g' src/util.js");
    expect(outcome).toMatchObject({ decision: 'allow' });
    await writeFile(join(repo, 'src', 'util.js'), 'work saved since\n');
    const result = await run(outcome);
    expect(result).toMatchObject({ ok: false });
    expect(JSON.stringify(result)).toContain('changed since it was allowed');
    expect(await readFile(join(repo, 'src', 'util.js'), 'utf8')).toBe('work saved since\n');
  });
});

describe('in-place edits that ask', () => {
  it('asks for a file git cannot give back, a hidden one, a link, or one outside a repository', async () => {
    for (const command of [
      "sed -i 's/foo/bar/' dirty.md",
      "sed -i 's/foo/bar/' untracked.md",
      "sed -i 's/foo/bar/' .github/ci.yml",
      "sed -i 's/foo/bar/' key",
      "sed -i 's/foo/bar/' ~/.bashrc",
      "sed -i 's/foo/bar/' missing.md",
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });

  it('asks for scripts that run, write or read elsewhere, backups and other options', async () => {
    for (const command of [
      "sed -i 's/foo/bar/e' README.md",
      "sed -i 's/foo/bar/w /tmp/x' README.md",
      "sed -i '1e touch /tmp/pwned' README.md",
      "sed -i 'r /etc/passwd' README.md",
      "sed -i 's/foo/bar/;w out.txt' README.md",
      "sed -i '/foo/d' README.md",
      "sed -i.bak 's/foo/bar/' README.md",
      "sed -iE 's/foo/bar/' README.md",
      "sed -n -i 's/foo/bar/p' README.md",
      "sed 's/foo/bar/' README.md > README.md",
      "sed -i 's/foo/bar/' $FILE",
      'perl -pi -e \'s/foo/system("id")/e\' README.md',
      "perl -pi -e 's/foo/@{[ `id` ]}/' README.md",
      "perl -pie 's/foo/bar/' README.md",
      "perl -0777 -pi -e 's/foo/bar/' README.md",
      "perl -pi -e 'BEGIN { system q(id) } s/foo/bar/' README.md",
      "perl -i -e 's/foo/bar/' README.md",
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });
});

describe('what counts as a plain substitution', () => {
  it('reads sed scripts conservatively', () => {
    expect(isSedSubstitution('s/a/b/g')).toBe(true);
    expect(isSedSubstitution('s#a/b#c#; 2,$s/x/y/2')).toBe(true);
    expect(isSedSubstitution('s/a\\/b/c/I')).toBe(true);
    for (const script of ['s/a/b/e', 's/a/b/w x', 's/a/b', 'y/ab/cd/', 's/a/b/ # c', '{s/a/b/}'])
      expect(isSedSubstitution(script), script).toBe(false);
  });

  it('reads perl substitutions that run no code', () => {
    expect(isPerlSubstitution('s/\\s+$//')).toBe(true);
    expect(isPerlSubstitution('s/(a)/$1$&/gi')).toBe(true);
    for (const script of ['s/a/b/ee', 's/$x/b/', 's/a/${x}/', 's/(?{ 1 })a/b/', 's/a/b/; s/c/d/'])
      expect(isPerlSubstitution(script), script).toBe(false);
  });
});
