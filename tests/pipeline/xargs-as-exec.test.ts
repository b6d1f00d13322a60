// `find src -name "*.js" | xargs wc -l` runs without a card when it is `find … -exec wc -l {} +`
// in other words: the same read-only command on the same names. Never when xargs could turn a
// name into another path (a blank, quote or backslash in a name below the roots, without -0),
// when the tree holds a protected place, or when find prints anything but plain names. Names from
// `grep -l`, `git ls-files` or `ls` of files are judged as find over the roots they come from.
import { link, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const home = process.env.HOME ?? '';
let base: string;
let pipeline: Pipeline;

beforeAll(async () => {
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
  base = await makeTempDir('xargs-');
  await mkdir(join(base, 'src'));
  await writeFile(join(base, 'src', 'a.js'), '// TODO one\nx\n');
  await writeFile(join(base, 'src', 'b.js'), 'y\n');
  await mkdir(join(home, 'dotfiles-xargs'), { recursive: true });
  await writeFile(join(home, 'dotfiles-xargs', '.netrc'), 'machine x login a password hunter2\n');
  // find prints `odd/x /HOME/dotfiles-xargs/.netrc`, which xargs splits into `odd/x` and the
  // path of the secret itself.
  const mirror = join(base, 'odd', `x ${home}`, 'dotfiles-xargs');
  await mkdir(mirror, { recursive: true });
  await writeFile(join(mirror, '.netrc'), 'x\n');
  await mkdir(join(base, 'spaced'));
  await writeFile(join(base, 'spaced', 'a b.js'), 'z\n');
  await mkdir(join(base, 'logs'));
  await writeFile(join(base, 'logs', 'old.log'), 'old\n');
  await writeFile(join(base, 'logs', 'new.log'), 'new\n');
  await execa('git', ['init', '-q', join(base, 'src')]);
  await execa('git', ['-C', join(base, 'src'), 'add', '-A']);
  await mkdir(join(base, 'linked'));
  await symlink(join(home, 'dotfiles-xargs', '.netrc'), join(base, 'linked', 'netrc'));
});
afterAll(() => pipeline.close());

function decide(command: string): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command, cwd: base }, 'count the lines'));
}

describe('find piped into xargs', () => {
  it('runs without a card as the -exec it spells, in a real run', async () => {
    const outcome = await decide('find src -name "*.js" | xargs wc -l');
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'read-only: find, wc' });
    const result = await pipeline.invoke(outcome, new AbortController().signal);
    expect(result).toMatchObject({ ok: true, result: { exit_code: 0 } });
    const stdout = result.ok ? String((result.result as { stdout: string }).stdout) : '';
    expect(stdout).toMatch(/3 total/);
    for (const command of [
      'find src -name "*.js" | xargs grep -n TODO',
      'find src -type f -print0 | xargs -0 wc -l',
      'find spaced -type f -print0 | xargs -0 wc -l',
    ])
      expect((await decide(command)).decision, command).toBe('allow');
  });

  it('asks when a name could become another path, or the tree holds a protected place', async () => {
    for (const command of [
      'find odd -type f | xargs cat',
      'find odd -type f | xargs wc -l',
      'find spaced -type f | xargs wc -l',
      'find linked | xargs cat',
      `find ${home}/dotfiles-xargs | xargs cat`,
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });

  it('asks for every other shape', async () => {
    for (const command of [
      'find src | xargs rm',
      'find src | xargs -I{} cat {}',
      'find src | xargs -n1 sh -c "cat $0"',
      'find src -printf "%p /etc/hostname\\n" | xargs cat',
      'find src -print0 | xargs wc -l',
      'find src | xargs -0 wc -l',
      'find -L src | xargs cat',
      'find src/* | xargs cat',
      'find src | xargs grep -r TODO',
      'cat list.txt | xargs cat',
      'find src | xargs ./tool',
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });
});

describe('grep -l, git ls-files and ls of files piped into xargs', () => {
  it('takes only filters that keep each name whole: a byte cut or a count makes other names', async () => {
    // vault/netrc-copy.txt is a hard link to a .netrc (the read check refuses it); the listing
    // names decoy/vault/netrc-copy.txt, whose last 21 bytes are the link's own path.
    await mkdir(join(base, 'vault'));
    await link(join(home, 'dotfiles-xargs', '.netrc'), join(base, 'vault', 'netrc-copy.txt'));
    await mkdir(join(base, 'decoy', 'vault'), { recursive: true });
    await writeFile(join(base, 'decoy', 'vault', 'netrc-copy.txt'), 'TODO\n');
    expect((await decide('cat vault/netrc-copy.txt')).decision).not.toBe('allow');
    for (const command of [
      'grep -l TODO decoy/vault/netrc-copy.txt | tail -c 21 | xargs rev',
      'grep -rl TODO decoy | tail -c21 | xargs rev',
      'grep -rl TODO decoy | head -c 5 | xargs rev',
      'grep -rl TODO decoy | uniq -c | xargs rev',
      'grep -rl TODO decoy | tail -v | xargs rev',
      'grep -rl TODO decoy | sort -z | xargs rev',
    ]) {
      const outcome = await decide(command);
      if (outcome.decision === 'allow') {
        const result = await pipeline.invoke(outcome, new AbortController().signal);
        expect(JSON.stringify(result), command).not.toContain('2retnuh');
      }
      expect(outcome.decision, command).not.toBe('allow');
    }
    for (const command of [
      'grep -rl TODO decoy | sort -r | head -n 1 | xargs wc -l',
      'grep -rl TODO decoy | tail -1 | xargs wc -l',
      'grep -rl TODO decoy | sort | uniq | xargs wc -l',
    ])
      expect((await decide(command)).decision, command).toBe('allow');
  });

  it('asks when git ls-files could name a file through a linked directory', async () => {
    // The index holds a/netrc-copy.txt; in the work tree `a` is now a link to a directory whose
    // netrc-copy.txt is a hard link to a .netrc. find would not descend the link; git prints
    // the path through it.
    const repo = join(base, 'indexed');
    await mkdir(join(repo, 'a'), { recursive: true });
    await writeFile(join(repo, 'a', 'netrc-copy.txt'), 'x\n');
    await execa('git', ['init', '-q', repo]);
    await execa('git', ['-C', repo, 'add', '-A']);
    await mkdir(join(base, 'elsewhere'));
    await link(join(home, 'dotfiles-xargs', '.netrc'), join(base, 'elsewhere', 'netrc-copy.txt'));
    await rm(join(repo, 'a'), { recursive: true });
    await symlink('../elsewhere', join(repo, 'a'));
    for (const command of ['git ls-files | xargs rev', 'git ls-files a | xargs rev']) {
      const outcome = await pipeline.evaluate(
        call('shell_exec', { command, cwd: repo }, 'show files'),
      );
      if (outcome.decision === 'allow') {
        const result = await pipeline.invoke(outcome, new AbortController().signal);
        expect(JSON.stringify(result), command).not.toContain('2retnuh');
      }
      expect(outcome.decision, command).not.toBe('allow');
    }
  });

  it('keeps git ls-files to names below the shell directory: a pathspec above it asks', async () => {
    // A project with a token tracked at its top; from its src/, these pathspecs print
    // `../.npmrc`, a name below no root the decision walked.
    const project = join(base, 'tracked-token');
    await mkdir(join(project, 'src'), { recursive: true });
    await writeFile(join(project, '.npmrc'), '//registry.npmjs.org/:_authToken=npm_TRACKEDTOKEN\n');
    await writeFile(join(project, 'src', 'a.js'), 'x\n');
    await execa('git', ['init', '-q', project]);
    await execa('git', ['-C', project, 'add', '-A']);
    const fromSrc = (command: string): Promise<PipelineOutcome> =>
      pipeline.evaluate(call('shell_exec', { command, cwd: join(project, 'src') }, 'show files'));
    for (const command of [
      'git ls-files .. | xargs cat',
      "git ls-files ':/' | xargs cat",
      "git ls-files ':(top)' | xargs cat",
      "git ls-files ':(top,glob)*' | xargs cat",
      `git ls-files ${project} | xargs cat`,
      'git ls-files ./../ | xargs cat',
    ]) {
      const outcome = await fromSrc(command);
      if (outcome.decision === 'allow') {
        const result = await pipeline.invoke(outcome, new AbortController().signal);
        expect(JSON.stringify(result), command).not.toContain('TRACKEDTOKEN');
      }
      expect(outcome.decision, command).not.toBe('allow');
    }
    for (const command of ['git ls-files | xargs wc -l', "git ls-files '*.js' | xargs cat"])
      expect((await fromSrc(command)).decision, command).toBe('allow');
  });

  it('runs without a card as find over the roots the names come from, in a real run', async () => {
    const outcome = await decide('grep -rl TODO src | xargs wc -l');
    expect(outcome).toMatchObject({ decision: 'allow' });
    const result = await pipeline.invoke(outcome, new AbortController().signal);
    expect(result).toMatchObject({ ok: true, result: { exit_code: 0, stdout: '2 src/a.js\n' } });
    for (const command of [
      'ls -t logs/*.log | head -1 | xargs tail -n 20',
      `ls ${base}/logs/*.log | xargs wc -l`,
      'ls logs/old.log logs/new.log | sort | xargs cat',
      'grep -l TODO src/a.js src/b.js | xargs wc -l',
      'cd src && git ls-files "*.js" | xargs wc -l',
    ])
      expect((await decide(command)).decision, command).toBe('allow');
  });

  it('asks when a name could become another path, or the roots hold a protected place', async () => {
    for (const command of [
      'grep -rl x odd | xargs cat',
      'ls linked/* | xargs cat',
      'grep -rl . linked | xargs cat',
      `ls ${home}/dotfiles-xargs/* | xargs cat`,
      'grep -rl z spaced | xargs wc -l',
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });

  it('asks when ls prints names from another directory, or the names could be anything', async () => {
    for (const command of [
      'ls src | xargs cat',
      'ls * | xargs cat',
      'ls -l logs/*.log | xargs cat',
      'ls -a logs | xargs cat',
      'grep -rl TODO src | xargs rm',
      'grep -rl TODO src | xargs -I{} cp {} /tmp',
      `grep -rl TODO src | cat ${home}/dotfiles-xargs/.netrc | xargs cat`,
      "grep -rl TODO src | sed 's/^/..\\//' | xargs cat",
      'grep -rl TODO src | head 5 | xargs cat',
      'grep -rl TODO src | sort -o x | xargs cat',
      'grep -l -f pats src | xargs cat',
      'grep -rc TODO src | xargs cat',
      'git ls-files --full-name | xargs cat',
      'git log --name-only | xargs cat',
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });
});
