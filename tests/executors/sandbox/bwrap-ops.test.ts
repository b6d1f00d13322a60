import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CodeView, ShellRequest } from '../../../executors/ops/shell-ops.ts';
import {
  bwrapAvailable,
  createBwrapShellOps,
  defaultBwrapPath,
} from '../../../executors/sandbox/bwrap.ts';
import { SandboxUnavailable } from '../../../runtime/errors.ts';
import { makeTempDir } from '../make-context.ts';

function request(cwd: string): ShellRequest {
  return {
    command: 'echo inside',
    args: [],
    cwd,
    timeoutMs: 10_000,
    outputCapBytes: 1024,
    signal: new AbortController().signal,
    writableRoots: [],
    network: false,
    env: { PATH: '/usr/bin:/bin', HOME: process.env.HOME ?? '/' },
  };
}

describe('createBwrapShellOps', () => {
  it('reports bwrap availability by trying a sandbox', async () => {
    expect(await bwrapAvailable(defaultBwrapPath)).toBe(true);
    expect(await bwrapAvailable('/nonexistent/bwrap')).toBe(false);
    // Executable but not bubblewrap: it cannot build a sandbox, so it does not count.
    expect(await bwrapAvailable('/bin/false')).toBe(false);
  });

  it('refuses while bwrap is missing and works once it is installed, without a restart', async () => {
    const dir = await makeTempDir('bin-');
    const bwrapPath = join(dir, 'bwrap');
    const ops = createBwrapShellOps({ bwrapPath });
    await expect(ops.run(request(dir))).rejects.toBeInstanceOf(SandboxUnavailable);
    await symlink(defaultBwrapPath, bwrapPath);
    expect(await ops.run(request(dir))).toMatchObject({ stdout: 'inside\n', sandbox: 'bwrap' });
  });

  it('hides a secret store created after earlier calls, under any HOME: nothing is cached', async () => {
    const ops = createBwrapShellOps();
    const cwd = await makeTempDir('work-');
    const homes = [await makeTempDir('home-a-'), await makeTempDir('home-b-')];
    const show = (home: string): Promise<{ stdout: string }> =>
      ops.run({
        ...request(cwd),
        command: 'cat ~/.ssh/id_ed25519 ~/.config/gh/hosts.yml ~/.netrc 2>/dev/null; ls -A ~/.ssh',
        env: { PATH: '/usr/bin:/bin', HOME: home },
      });
    // The first calls see homes without stores; then each home gets them.
    for (const home of homes) expect((await show(home)).stdout).toBe('');
    for (const [n, home] of homes.entries()) {
      const secret = `planted-secret-${String(n)}`;
      await mkdir(join(home, '.ssh'));
      await writeFile(join(home, '.ssh', 'id_ed25519'), secret);
      await mkdir(join(home, '.config', 'gh'), { recursive: true });
      await writeFile(join(home, '.config', 'gh', 'hosts.yml'), secret);
      await writeFile(join(home, '.netrc'), secret);
      const { stdout } = await show(home);
      expect(stdout).not.toContain(secret);
      expect(stdout).toBe('');
    }
  });
});

describe('start-up files code nobody reviewed must not find', () => {
  it("masks sqlite3's rc in a config home outside the home, for a sandbox with an empty home", async () => {
    const ops = createBwrapShellOps();
    const home = await makeTempDir('home-');
    const configHome = await makeTempDir('config-');
    await mkdir(join(configHome, 'sqlite3'));
    const rc = join(configHome, 'sqlite3', 'sqliterc');
    await writeFile(rc, '.shell id\n');
    const run = (codeView?: CodeView): Promise<{ stdout: string }> =>
      ops.run({
        ...request(home),
        command: `cat ${rc}; echo end`,
        env: { PATH: '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: configHome },
        ...(codeView === undefined ? {} : { codeView }),
      });
    expect(await run()).toMatchObject({ stdout: '.shell id\nend\n' });
    expect(await run({ places: [configHome], masked: [] })).toMatchObject({ stdout: 'end\n' });
  });
});
