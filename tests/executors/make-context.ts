// Test contexts with the real ops: real files under the test HOME, real processes, real sockets.
import { mkdtemp, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { parseConfig, type Config, type ConfigInput } from '../../runtime/config.ts';
import type { ExecutorContext } from '../../executors/define.ts';
import type { Grant } from '../../runtime/pipeline/grant.ts';
import { createDefaultOps } from '../../executors/ops/default-ops.ts';

/** A fresh directory under the test HOME (setup.ts gives each test file its own HOME). */
export async function makeTempDir(prefix = 'work-'): Promise<string> {
  return realpath(await mkdtemp(join(process.env.HOME ?? '/nonexistent', prefix)));
}

/** An ExecutorContext on the real ops with `config` over the defaults. */
export async function makeContext(
  config: ConfigInput = {},
  options: { signal?: AbortSignal; bwrapPath?: string } = {},
): Promise<ExecutorContext & { config: Config }> {
  const parsed = parseConfig(config);
  return {
    config: parsed,
    env: { ...process.env },
    signal: options.signal ?? new AbortController().signal,
    // As a person approved it: the configured roots, no uncarded narrowing.
    grant: { by: 'person', who: 'test', reviews: false, network: false, hostProcesses: false },
    ops: await createDefaultOps(
      parsed,
      options.bwrapPath === undefined ? {} : { bwrapPath: options.bwrapPath },
    ),
  };
}

/** An uncarded tier's grant: the sandbox may write only `writable`. */
export function tierGrant(writable: readonly string[]): Grant {
  return {
    by: 'tier',
    tier: 'workspace',
    rule: 'test',
    writable,
    readOnlyWithin: [],
    records: [],
    replaces: false,
    hostProcesses: false,
    viaProxy: false,
    pinned: [],
  };
}
