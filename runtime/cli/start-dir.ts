// The directory the person started Custode from. `npm start` and `npm run` run scripts in the
// package root and keep the person's directory in INIT_CWD; elsewhere it is the process's cwd.
import { resolve } from 'node:path';

const packageRoot = resolve(import.meta.dirname, '../..');

/** Where the person was when they ran the command (absolute). */
export function startDir(env: NodeJS.ProcessEnv, cwd: string = process.cwd()): string {
  const initCwd = env.INIT_CWD;
  return resolve(cwd) === packageRoot && initCwd !== undefined && initCwd !== ''
    ? resolve(initCwd)
    : resolve(cwd);
}
