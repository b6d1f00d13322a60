// Where a command's program is, found as bash would find it on the PATH a command gets, and
// whether it is set-user- or set-group-ID: what a card needs to say that the sandbox dooms a
// run (no program gains privileges under bubblewrap's no_new_privs).
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

export interface ProgramFacts {
  /** Where PATH finds it. */
  readonly path: string;
  /** The same with its links resolved. */
  readonly real: string;
  readonly setId: 'uid' | 'gid' | null;
}

/** Finds a program by name as bash would on a command's PATH; null when not found. */
export type LookUpProgram = (name: string) => ProgramFacts | null;

const SET_UID = 0o4000;
const SET_GID = 0o2000;

function factsOf(path: string): ProgramFacts | null {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat === undefined || !stat.isFile() || (stat.mode & 0o111) === 0) return null;
  const setId = (stat.mode & SET_UID) !== 0 ? 'uid' : (stat.mode & SET_GID) !== 0 ? 'gid' : null;
  return { path, real: realpathSync(path), setId };
}

/** A lookup over `searchPath` (PATH's value): a name with a `/` is taken as it is. */
export function createProgramLookup(searchPath: string): LookUpProgram {
  return (name) => {
    try {
      if (name.includes('/')) return isAbsolute(name) ? factsOf(name) : null;
      for (const dir of searchPath.split(':')) {
        if (dir === '') continue;
        const found = factsOf(join(dir, name));
        if (found !== null) return found;
      }
    } catch {
      // Unreadable: the card says nothing it cannot stand behind.
    }
    return null;
  };
}
