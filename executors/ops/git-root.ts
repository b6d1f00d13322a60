// The work tree holding a path: the nearest directory with a `.git`. Walked here rather than
// with isomorphic-git's findRoot, which prints to the console on an error it does not expect.
import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** The nearest ancestor of `dir` (itself included) holding `.git`; null when none or unreadable. */
export async function findWorkTree(dir: string): Promise<string | null> {
  for (let current = dir; ; current = dirname(current)) {
    const found = await stat(join(current, '.git')).then(
      () => true,
      (error: unknown) => ((error as NodeJS.ErrnoException).code === 'ENOENT' ? false : null),
    );
    if (found === null) return null;
    if (found) return current;
    if (dirname(current) === current) return null;
  }
}
