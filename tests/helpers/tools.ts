// Tools some tests need that an ordinary machine may lack: such a test skips, and its title
// says what it needs (CI installs them: .ci/run).
import { accessSync, constants } from 'node:fs';
import { spawnSync } from 'node:child_process';

/** `python3 -m pytest` runs (python3-pytest, or pip's pytest, is installed for this user). */
export const hasPytest = spawnSync('python3', ['-m', 'pytest', '--version']).status === 0;

/** A program answers `--version` (or `-V`): procps' ps, iproute2's ss. */
export function hasProgram(name: string, flag = '--version'): boolean {
  return spawnSync(name, [flag]).status === 0;
}

/** Whether this process may read a file (root may read /etc/shadow; an ordinary user may not). */
export function canRead(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}
