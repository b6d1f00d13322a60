// Whether git can give a file back: tracked and unmodified in its work tree. Read with
// isomorphic-git, which reads the index and hashes the file in-process: no git binary runs, so
// nothing a repository's config names (filters, fsmonitor) runs on the host at decision time.
import * as fs from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** The work tree holding `path`: the nearest directory up that has a `.git` directory. */
function workTreeOf(path: string): string | null {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    try {
      if (fs.statSync(join(dir, '.git')).isDirectory()) return dir;
    } catch {
      // not here; keep climbing
    }
    if (dir === '/') return null;
  }
}

/**
 * True when `path` (absolute, links resolved) is a regular file tracked by its work tree's git
 * and unmodified there; false on anything else, an error included (the edit then asks).
 */
export async function isTrackedClean(path: string): Promise<boolean> {
  const dir = workTreeOf(path);
  if (dir === null) return false;
  try {
    if (!fs.lstatSync(path).isFile()) return false;
    // Loaded here, not at start: most decisions never ask git.
    const { default: git } = await import('isomorphic-git');
    return (await git.status({ fs, dir, filepath: relative(dir, path) })) === 'unmodified';
  } catch {
    return false;
  }
}
