// The real ops for a daemon or the CLI, chosen by config.sandbox.mode.
import type { Config } from '../../runtime/config.ts';
import type { ExecutorContext } from '../define.ts';
import { createBareShellOps } from '../sandbox/bare.ts';
import { createBwrapShellOps } from '../sandbox/bwrap.ts';
import { createNodeFsOps } from './node-fs.ts';
import { createNodeHttpOps } from './node-http.ts';

/**
 * Real fs, http and shell ops. mode 'bwrap' always sandboxes: where bwrap is missing the shell
 * ops refuse (SandboxUnavailable) and the rest still works; only mode 'off' runs bare.
 * `prestart` (the daemon) starts each next sandbox before its call comes (prestart-pool.ts).
 */
export async function createDefaultOps(
  config: Config,
  options: { bwrapPath?: string; prestart?: boolean } = {},
): Promise<ExecutorContext['ops']> {
  return {
    fs: createNodeFsOps(),
    http: createNodeHttpOps(),
    shell: config.sandbox.mode === 'off' ? createBareShellOps() : createBwrapShellOps(options),
  };
}
