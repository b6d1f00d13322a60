// How runLimited reports a process that never started and one a signal ended (Node's spawn
// underneath): an error for the first, a result with no exit code for the second.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ShellRequest } from '../../../executors/ops/shell-ops.ts';
import { runLimited } from '../../../executors/sandbox/run-process.ts';
import { NotFound } from '../../../runtime/errors.ts';
import { makeTempDir } from '../make-context.ts';

function request(cwd: string): ShellRequest {
  return {
    command: '',
    args: [],
    cwd,
    timeoutMs: 10_000,
    outputCapBytes: 1024,
    signal: new AbortController().signal,
    writableRoots: [],
    network: false,
    env: { PATH: '/usr/bin:/bin' },
  };
}

describe('runLimited', () => {
  it('throws NotFound, not a result, when the binary or the cwd is missing', async () => {
    const dir = await makeTempDir();
    await expect(
      runLimited(join(dir, 'no-such-binary'), [], request(dir), 'off'),
    ).rejects.toBeInstanceOf(NotFound);
    await expect(
      runLimited('bash', ['-c', 'true'], request(join(dir, 'gone')), 'off'),
    ).rejects.toBeInstanceOf(NotFound);
  });

  it('reports a process a signal ended with no exit code, and keeps what it printed', async () => {
    const dir = await makeTempDir();
    const result = await runLimited('bash', ['-c', 'echo before; kill -9 $$'], request(dir), 'off');
    expect(result).toMatchObject({ stdout: 'before\n', exit_code: null, timed_out: false });
  });
});
