// The git remotes of the repository holding a directory, for the card's network line: read
// with isomorphic-git from the repository's config (no git process: a repository's config
// can name programs for git to run).
import * as fs from 'node:fs';
import git from 'isomorphic-git';
import { findWorkTree } from './git-root.ts';
import type { ReadRemotes } from '../../runtime/approvals/target-facts.ts';

/** A reader over the real file system; any failure is "no remotes known". */
export function createRemoteReader(): ReadRemotes {
  return async (dir) => {
    try {
      const root = await findWorkTree(dir);
      if (root === null) return { urls: new Map(), defaultRemote: null };
      const listed = await git.listRemotes({ fs, dir: root });
      const urls = new Map(listed.map(({ remote, url }) => [remote, url]));
      const branch = await git.currentBranch({ fs, dir: root });
      const upstream =
        branch === undefined || branch === null
          ? undefined
          : await git.getConfig({ fs, dir: root, path: `branch.${branch}.remote` });
      // `git push` with no remote goes to the branch's upstream remote, else origin.
      const fallback = typeof upstream === 'string' ? upstream : 'origin';
      return { urls, defaultRemote: urls.has(fallback) ? fallback : null };
    } catch {
      return { urls: new Map(), defaultRemote: null };
    }
  };
}
