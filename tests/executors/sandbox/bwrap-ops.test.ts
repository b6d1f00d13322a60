import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ShellRequest } from '../../../executors/ops/shell-ops.ts';
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
});
