// Whether git can give a file back: tracked and unmodified in its work tree; whether an index
// holds a version nothing else does. Read with
// isomorphic-git, which reads the index and hashes the file in-process: no git binary runs, so
// nothing a repository's config names (filters, fsmonitor) runs on the host at decision time.
import * as fs from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** A write isomorphic-git asks for while it answers a question: dropped. */
async function kept(): Promise<void> {
  // nothing is written
}

/**
 * The disk as isomorphic-git sees it at decision time: reads pass through, writes are dropped.
 * Its status refreshes the index's stat cache and writes .git/index without git's index.lock,
 * so a `git add` the person runs meanwhile would lose its own write; a decision changes nothing.
 */
const readOnlyDisk = {
  promises: {
    readFile: fs.promises.readFile,
    stat: fs.promises.stat,
    lstat: fs.promises.lstat,
    readdir: fs.promises.readdir,
    readlink: fs.promises.readlink,
    writeFile: kept,
    mkdir: kept,
    rmdir: kept,
    rm: kept,
    unlink: kept,
    symlink: kept,
  },
};

/** The work tree holding `start`: the nearest directory up from it that has a `.git` directory. */
function workTreeAt(start: string): string | null {
  for (let dir = start; ; dir = dirname(dir)) {
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
  const dir = workTreeAt(dirname(path));
  if (dir === null) return false;
  try {
    if (!fs.lstatSync(path).isFile()) return false;
    // Loaded here, not at start: most decisions never ask git.
    const { default: git } = await import('isomorphic-git');
    return (
      (await git.status({ fs: readOnlyDisk, dir, filepath: relative(dir, path) })) === 'unmodified'
    );
  } catch {
    return false;
  }
}

/**
 * True when the index of the work tree holding `dir` has a version of some file that is neither
 * HEAD's nor the work tree's (`git add f`, then more edits to f): unstaging it would leave that
 * version a dangling blob. True on an error too (the unstaging then asks).
 */
export async function hasStagedOnlyVersion(dir: string): Promise<boolean> {
  const top = workTreeAt(dir);
  if (top === null) return true;
  try {
    const { default: git } = await import('isomorphic-git');
    // A row is [file, head, workdir, stage]; stage 3: differs from the work tree (and from HEAD).
    return (await git.statusMatrix({ fs: readOnlyDisk, dir: top })).some((row) => row[3] === 3);
  } catch {
    return true;
  }
}
