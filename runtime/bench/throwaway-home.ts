// A fresh, ordinary HOME for benchmarks and corpus runs: as root, ~ would be /root, which
// the guard protects, and the figures would describe this machine rather than the gate.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A new HOME under the temp dir, and `base` with HOME and the XDG dirs pointing inside it. */
export async function throwawayHome(
  prefix: string,
  base: NodeJS.ProcessEnv = process.env,
  extra: NodeJS.ProcessEnv = {},
): Promise<{ home: string; env: NodeJS.ProcessEnv }> {
  const home = await mkdtemp(join(tmpdir(), prefix));
  const env: NodeJS.ProcessEnv = {
    ...base,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_STATE_HOME: join(home, '.local/state'),
    CUSTODE_LOG_LEVEL: 'silent',
    ...extra,
  };
  delete env.CUSTODE_JUDGE_KIND;
  delete env.CUSTODE_JUDGE_THRESHOLD;
  return { home, env };
}
