// The host's process command lines as `ps` and `pgrep -f` search them, read when a call is
// decided: every /proc/PID/cmdline this user may read, its NULs as spaces.
import { readdirSync, readFileSync } from 'node:fs';

/** Past this many processes the table is not read whole: "could not tell" (the caller's true). */
const MAX_PROCESSES = 8192;

/**
 * True when some process's command line holds what `holds` looks for, or when the table could
 * not be read whole (fail closed). A process that ends while it is read is skipped.
 */
export function someCommandLine(holds: (commandLine: string) => boolean): boolean {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return true;
  }
  if (pids.length > MAX_PROCESSES) return true;
  return pids.some((pid) => {
    try {
      return holds(readFileSync(`/proc/${pid}/cmdline`, 'latin1').replaceAll('\0', ' '));
    } catch {
      return false;
    }
  });
}
