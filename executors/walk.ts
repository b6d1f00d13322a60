// A depth-first walk over a directory tree through FsOps, shared by fs_grep and fs_glob.
// Symlinked directories are not followed (no loops, no escaping the root through a link), and a
// protected place below the root is neither entered nor named (constitution/protected.ts).
import { join } from 'node:path';
import type { FsOps } from './ops/fs-ops.ts';
import type { ProtectedCheck } from './protected-places.ts';

/** One entry met by walkTree. */
export interface WalkEntry {
  /** Absolute path. */
  readonly path: string;
  /** Path relative to the walk root, with `/` separators. */
  readonly relative: string;
  readonly isDirectory: boolean;
  readonly isSymbolicLink: boolean;
}

/** Directories whose contents are noise for a search (version-control internals). */
const skippedDirectories = new Set(['.git', '.hg', '.svn']);

/** Entries one search may visit: a walk over a whole home directory must end. */
export const maxWalkEntries = 200_000;

/** How many more entries a walk may yield; 0 afterwards means the walk was cut short. */
export interface WalkBudget {
  remaining: number;
}

/**
 * Yield every entry under `root` (not the root itself) in name order, depth first, until the
 * budget runs out, skipping whatever `isProtected` names; throws when `signal` aborts.
 */
export async function* walkTree(
  fs: FsOps,
  root: string,
  signal: AbortSignal,
  isProtected: ProtectedCheck,
  budget: WalkBudget = { remaining: maxWalkEntries },
): AsyncGenerator<WalkEntry> {
  const pending: { dir: string; relative: string }[] = [{ dir: root, relative: '' }];
  while (pending.length > 0) {
    signal.throwIfAborted();
    const next = pending.pop();
    if (next === undefined) break;
    let entries;
    try {
      entries = await fs.readdir(next.dir);
    } catch {
      // An unreadable subdirectory is skipped, like grep -r does, rather than failing the search.
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirectories: { dir: string; relative: string }[] = [];
    for (const entry of entries) {
      if (budget.remaining <= 0) return;
      budget.remaining -= 1;
      const relative = next.relative === '' ? entry.name : `${next.relative}/${entry.name}`;
      const path = join(next.dir, entry.name);
      if (isProtected(path) !== null) continue;
      const isDirectory = entry.isDirectory();
      yield { path, relative, isDirectory, isSymbolicLink: entry.isSymbolicLink() };
      if (isDirectory && !skippedDirectories.has(entry.name)) {
        subdirectories.push({ dir: path, relative });
      }
    }
    // Reversed onto the stack so the first subdirectory is walked first.
    pending.push(...subdirectories.reverse());
  }
}
