// A fresh, ordinary HOME for benchmarks and corpus runs: as root, ~ would be /root, which
// the guard protects, and the figures would describe this machine rather than the gate.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the HOME goes: /var/tmp when it can, because a HOME inside /tmp is not ordinary (the
 * sandbox gives every command a private /tmp, so paths that climb out of such a HOME land in
 * it), else the temp dir.
 */
async function makeHome(prefix: string): Promise<string> {
  try {
    return await mkdtemp(join('/var/tmp', prefix));
  } catch {
    return mkdtemp(join(tmpdir(), prefix));
  }
}

/** A new, ordinary HOME, and `base` with HOME and the XDG dirs pointing inside it. */
export async function throwawayHome(
  prefix: string,
  base: NodeJS.ProcessEnv = process.env,
  extra: NodeJS.ProcessEnv = {},
): Promise<{ home: string; env: NodeJS.ProcessEnv }> {
  const home = await makeHome(prefix);
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
