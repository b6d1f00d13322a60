// Project code may write its git work tree but not any repository's history or hooks: the
// tree's own .git is bound read-only by the decision, and this finds the others inside it
// (a vendored clone with its own .git), whose hooks would run when the person commits there.
import { join } from 'node:path';
import type { FsOps } from '../ops/fs-ops.ts';
import { SandboxUnavailable } from '../../runtime/errors.ts';

/** Directories walked at most: past it the tree is too large to vouch for. */
export const MAX_WALKED_DIRS = 20_000;

// Installed dependencies hold no repository a person commits in, and are the bulk of a tree.
const SKIPPED = new Set(['node_modules']);

/**
 * Every `.git` below `root` other than its own, found by a bounded walk (symlinks not
 * followed). Throws past `limit` directories: the call does not run, and says how to ask.
 */
export async function nestedRepositories(
  root: string,
  fs: FsOps,
  limit: number = MAX_WALKED_DIRS,
): Promise<string[]> {
  const found: string[] = [];
  let queue = [root];
  let walked = 0;
  while (queue.length > 0) {
    const next: string[] = [];
    for (const dir of queue) {
      walked += 1;
      if (walked > limit) {
        throw new SandboxUnavailable(
          `the work tree ${root} has more than ${String(limit)} directories, too many to check for nested repositories before running project code without approval; call again with request_approval: true`,
        );
      }
      const entries = await fs.readdir(dir).catch(() => []);
      for (const entry of entries) {
        const path = join(dir, entry.name);
        if (entry.name === '.git') {
          if (dir !== root) found.push(path);
        } else if (entry.isDirectory() && !SKIPPED.has(entry.name)) next.push(path);
      }
    }
    queue = next;
  }
  return found;
}
