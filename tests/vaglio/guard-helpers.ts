// The guard asked about one shell line, as the pipeline asks it for shell_exec.
import { guardCall, type GuardResult } from '../../runtime/vaglio/guard.ts';

/** The guard's answer for `command` run by shell_exec under `home`. */
export function guardShell(command: string, home: string): GuardResult {
  return guardCall({ executor: 'shell_exec', args: { command }, commandArg: 'command', home });
}

/** The denial's reason, or 'PASS'. */
export function reasonOf(result: GuardResult): string {
  return result.blocked ? result.reason : 'PASS';
}
