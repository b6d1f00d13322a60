// The executors' view of the one protected list: Custode's own dirs resolved from this call's
// environment, and the places a protected store links to (stow-style dotfiles: ~/.npmrc ->
// ~/dotfiles/npmrc), so a walk, a listing, the run-time re-check and the guard stage agree.
import { lstatSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { maskedStores, protectionOf, type Protection } from '../constitution/protected.ts';
import { configDir, dataDir, homeDir, stateDir } from '../runtime/paths.ts';

/** A question for absolute paths: which protected place, if any, holds this one. */
export type ProtectedCheck = (path: string) => Protection | null;

/** Where each protected store in the home that is a symbolic link really is. */
function linkedStores(home: string): string[] {
  const out: string[] = [];
  for (const store of maskedStores().home) {
    if (store.includes('*')) continue;
    const path = join(home, store);
    try {
      if (lstatSync(path).isSymbolicLink()) out.push(realpathSync(path));
    } catch {
      // not there, or a dangling link: nothing to protect elsewhere
    }
  }
  return out;
}

/** Places protected besides the families: Custode's dirs and where linked stores lead. */
export function protectedDirsOf(env: NodeJS.ProcessEnv): string[] {
  return [configDir(env), dataDir(env), stateDir(env), ...linkedStores(homeDir(env))];
}

/** The protected-place check for a call run with `env`. */
export function protectedCheck(env: NodeJS.ProcessEnv): ProtectedCheck {
  const own = protectedDirsOf(env);
  return (path) => protectionOf(path, own);
}
