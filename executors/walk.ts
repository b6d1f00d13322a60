// A depth-first walk over a directory tree through FsOps, shared by fs_grep and fs_glob.
// Symlinked directories are not followed (no loops, no escaping the root through a link).
import { join } from 'node:path';
import type { FsOps } from './ops/fs-ops.ts';

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

/** Yield every entry under `root` (not the root itself), stopping early when `signal` aborts. */
export async function* walkTree(
  fs: FsOps,
  root: string,
  signal: AbortSignal,
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
    entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
    for (const entry of entries) {
      const relative = next.relative === '' ? entry.name : `${next.relative}/${entry.name}`;
      const path = join(next.dir, entry.name);
      const isDirectory = entry.isDirectory();
      yield { path, relative, isDirectory, isSymbolicLink: entry.isSymbolicLink() };
      if (isDirectory && !skippedDirectories.has(entry.name)) {
        pending.push({ dir: path, relative });
      }
    }
  }
}
