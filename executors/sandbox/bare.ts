// ShellOps without a sandbox (config.sandbox.mode: off): bash on the host, same limits.
import type { ShellOps } from '../ops/shell-ops.ts';
import { runLimited } from './run-process.ts';

/** ShellOps that runs `bash -c` directly on the host; results say sandbox: 'off'. */
export function createBareShellOps(): ShellOps {
  return {
    kind: 'off',
    run: (request) =>
      runLimited('bash', ['-c', request.command, 'bash', ...request.args], request, 'off'),
  };
}
