// The executors' view of the one protected list: Custode's own dirs resolved from this call's
// environment, so a walk, a listing and the run-time re-check agree with the guard.
import { protectionOf, type Protection } from '../constitution/protected.ts';
import { configDir, dataDir, stateDir } from '../runtime/paths.ts';

/** A question for absolute paths: which protected place, if any, holds this one. */
export type ProtectedCheck = (path: string) => Protection | null;

/** The protected-place check for a call run with `env`. */
export function protectedCheck(env: NodeJS.ProcessEnv): ProtectedCheck {
  const own = [configDir(env), dataDir(env), stateDir(env)];
  return (path) => protectionOf(path, own);
}
