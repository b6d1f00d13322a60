// ShellOps without a sandbox (config.sandbox.mode: off): bash on the host, same limits.
import type { ShellOps } from '../ops/shell-ops.ts';
import { bashWords, lineEnv } from './command-text.ts';
import { runLimited } from './run-process.ts';

/** ShellOps that runs the line in bash directly on the host; results say sandbox: 'off'. */
export function createBareShellOps(): ShellOps {
  return {
    kind: 'off',
    run: (request) =>
      runLimited(
        'bash',
        bashWords(request.args),
        { ...request, env: lineEnv(request.env, request.command) },
        'off',
      ),
  };
}
