// A pre-started sandbox runs a call only when it is exactly the sandbox the call's grant and the
// secret stores found now ask for: real bubblewrap runs, real stores planted between calls.
import { execFileSync } from 'node:child_process';
import { access, mkdir, rename, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ShellRequest } from '../../../executors/ops/shell-ops.ts';
import { bwrapAvailable, createBwrapShellOps } from '../../../executors/sandbox/bwrap.ts';
import { makeTempDir } from '../make-context.ts';

// Skipped where bubblewrap is missing or user namespaces are off: there is no sandbox to start.
const usable = await bwrapAvailable();

async function setup(): Promise<{ home: string; work: string; base: ShellRequest }> {
  const home = await makeTempDir('home-');
  const work = await makeTempDir('work-');
  const base: ShellRequest = {
    command: 'true',
    args: [],
    cwd: work,
    timeoutMs: 10_000,
    outputCapBytes: 64 * 1024,
    signal: new AbortController().signal,
    writableRoots: [work],
    network: false,
    env: { PATH: '/usr/bin:/bin', HOME: home },
  };
  return { home, work, base };
}

/** Ops that pre-start, after one call has run and the next sandbox for its profile is ready. */
async function warmed(request: ShellRequest): Promise<ReturnType<typeof createBwrapShellOps>> {
  const ops = createBwrapShellOps({ prestart: true });
  expect((await ops.run(request)).exit_code).toBe(0);
  await ops.prestartSettled();
  return ops;
}

/** This process's bubblewrap children alive (zombies aside) whose command line names `dir`. */
function liveSandboxes(dir: string): string[] {
  let listed = '';
  try {
    listed = execFileSync('ps', ['-o', 'stat=,args=', '--ppid', String(process.pid)], {
      encoding: 'utf8',
    });
  } catch {
    // ps exits 1 when no process matches: none is alive.
  }
  return listed.split('\n').filter((line) => {
    const [stat = '', file = ''] = line.trim().split(/\s+/);
    return !stat.startsWith('Z') && basename(file) === 'bwrap' && line.includes(` ${dir} `);
  });
}

/** Waits (a little) for the sandboxes for `dir` killed to be gone; returns those still alive. */
async function sandboxesLeft(dir: string): Promise<string[]> {
  for (let tries = 0; tries < 40 && liveSandboxes(dir).length > 0; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return liveSandboxes(dir);
}

describe.skipIf(!usable)('pre-started sandboxes (skipped without a working bubblewrap)', () => {
  it('runs the next call in the waiting sandbox, line and args byte-identical and out of every argv', async () => {
    const { base } = await setup();
    const ops = await warmed(base);
    const line = `printf '[%s]' "$0" "$@"; echo; echo @@; tr '\\0' ' ' < /proc/$$/cmdline`;
    const args = ['a b', '', 'it\'s "q"\n\\n', '--', 'ü€'];
    const result = await ops.run({ ...base, command: line, args });
    expect(result.exit_code).toBe(0);
    const [printed, cmdline] = result.stdout.split('\n@@\n');
    expect(printed).toBe(`[bash]${args.map((arg) => `[${arg}]`).join('')}`);
    expect(cmdline).not.toContain('[%s]');
    expect(ops.prestarted).toMatchObject({ used: 1, discarded: 0, startedOnDemand: 1 });
    // Each sandbox runs one call: the next one waits in a new sandbox.
    await ops.prestartSettled();
    expect((await ops.run({ ...base, command: 'echo again' })).stdout).toBe('again\n');
    expect(ops.prestarted.used).toBe(2);
  });

  it('closing the ops kills the waiting sandbox and starts no other', async () => {
    const { work, base } = await setup();
    const ops = await warmed(base);
    ops.close();
    expect(ops.prestarted.discarded).toBe(1);
    await expect(ops.run({ ...base, command: 'echo after' })).rejects.toThrow(/closed/);
    await ops.prestartSettled();
    expect(ops.prestarted).toMatchObject({ used: 0, discarded: 1, startedOnDemand: 1 });
    expect(await sandboxesLeft(work)).toEqual([]);
  });

  it('closing while a call takes the sandbox coming up kills it: the call runs nothing, none is left', async () => {
    const { work, base } = await setup();
    const ops = createBwrapShellOps({ prestart: true });
    await ops.run(base);
    // Not settled: the next call finds its sandbox still coming up and waits for it in take().
    const call = ops.run({ ...base, command: `touch ${work}/ran; sleep 5` });
    await new Promise((resolve) => setImmediate(resolve));
    ops.close();
    expect(await sandboxesLeft(work)).toEqual([]);
    await expect(call).rejects.toThrow(/closed/);
    expect(await sandboxesLeft(work)).toEqual([]);
    await expect(access(join(work, 'ran'))).rejects.toThrow();
  });

  it('closing kills a call still running, and a call after it starts no sandbox', async () => {
    const { work, base } = await setup();
    const ops = await warmed(base);
    const call = ops.run({ ...base, command: `touch ${work}/started; sleep 30` });
    await expect
      .poll(() =>
        access(join(work, 'started')).then(
          () => true,
          () => false,
        ),
      )
      .toBe(true);
    ops.close();
    expect((await call).exit_code).toBeNull();
    await expect(ops.run({ ...base, command: 'true' })).rejects.toThrow(/closed/);
    expect(await sandboxesLeft(work)).toEqual([]);
  });

  it('never uses a waiting sandbox that predates a secret store created since', async () => {
    const { home, base } = await setup();
    const ops = await warmed(base);
    await mkdir(join(home, '.ssh'));
    await writeFile(join(home, '.ssh', 'id_ed25519'), 'PLANTED-KEY');
    await writeFile(join(home, '.netrc'), 'PLANTED-NETRC');
    const result = await ops.run({ ...base, command: 'cat ~/.ssh/id_ed25519 ~/.netrc' });
    expect(result.stdout).toBe('');
    expect(ops.prestarted).toMatchObject({ used: 0, discarded: 1, startedOnDemand: 2 });
  });

  it('never uses a waiting sandbox whose masked file was replaced since (its mask would be gone)', async () => {
    // The same stores exist, so the command line is the same; but a file renamed over a masked
    // one drops the waiting sandbox's mask with the old file (npm, editors, passwd save so).
    const { home, base } = await setup();
    await writeFile(join(home, '.npmrc'), 'old');
    const ops = await warmed(base);
    await writeFile(join(home, '.npmrc.new'), 'PLANTED-TOKEN');
    await rename(join(home, '.npmrc.new'), join(home, '.npmrc'));
    const result = await ops.run({ ...base, command: 'cat ~/.npmrc; echo end' });
    expect(result.stdout).toBe('end\n');
    expect(ops.prestarted).toMatchObject({ used: 0, discarded: 1 });
  });

  it('never uses a waiting sandbox started for another grant', async () => {
    const { work, base } = await setup();
    const ops = await warmed(base);
    // The same call with its workspace read-only (another grant): the writable sandbox waits unused.
    const readOnly = await ops.run({
      ...base,
      writableRoots: [],
      command: 'touch ./planted 2>/dev/null && echo wrote || echo refused',
    });
    expect(readOnly.stdout).toBe('refused\n');
    await ops.prestartSettled();
    // Nor is the one waiting for the read-only grant used for a call with the network.
    const networked = await ops.run({
      ...base,
      writableRoots: [],
      network: true,
      command: 'touch ./planted 2>/dev/null && echo wrote || echo refused',
    });
    expect(networked.stdout).toBe('refused\n');
    expect(ops.prestarted).toMatchObject({ used: 0, startedOnDemand: 3 });
    // The writable one waited for its own grant, and serves it.
    await ops.prestartSettled();
    const written = await ops.run({ ...base, command: `touch ${work}/ok && echo wrote` });
    expect(written.stdout).toBe('wrote\n');
    expect(ops.prestarted).toMatchObject({ used: 1, discarded: 0 });
  });

  it('keeps no sandbox waiting unless asked to', async () => {
    const { base } = await setup();
    const ops = createBwrapShellOps();
    await ops.run(base);
    await ops.prestartSettled();
    await ops.run(base);
    expect(ops.prestarted).toMatchObject({ used: 0, discarded: 0, startedOnDemand: 2 });
  });
});
