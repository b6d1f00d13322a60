// What a tree read (grep -r, rg, find -exec cat, tar -c, diff -r) would open below its top:
// every entry, walked at decision time, is asked the one protected-place question, links by
// where they lead. The guard judges only the top's text, and the sandbox hides secret stores
// only where they usually live: ~/dotfiles/.netrc is protected by name but masked by no one.
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import type { Protection } from '../../constitution/protected.ts';
import { globToRegExp } from '../glob-match.ts';

/** Most entries a decision walks; a larger tree is not read without a card. */
export const TREE_ENTRY_LIMIT = 20_000;

/** Why a tree may not be read whole: a protected entry below it, or too many to look at. */
export type TreeObstacle =
  | { readonly kind: 'protected'; readonly path: string; readonly protection: Protection }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'unreadable'; readonly path: string };

/**
 * The first obstacle below `top` (links resolved), or null; null too when `top` is no directory. `plain`
 * answers for an entry by its text; `followed` for a link, by where it leads too.
 */
export function treeObstacle(
  top: string,
  plain: (path: string) => Protection | null,
  followed: (path: string) => Protection | null,
  limit = TREE_ENTRY_LIMIT,
): TreeObstacle | null {
  // A file (or nothing) there is no tree: the path check of its own text is all there is.
  if (statSync(top, { throwIfNoEntry: false })?.isDirectory() !== true) return null;
  const pending = [top];
  let seen = 0;
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      // The reader may fail on it too, or not (permissions differ in the sandbox): not cleared.
      return { kind: 'unreadable', path: dir };
    }
    for (const entry of entries) {
      seen += 1;
      if (seen > limit) return { kind: 'too-large' };
      const path = join(dir, entry.name);
      const protection = entry.isSymbolicLink() ? followed(path) : plain(path);
      if (protection !== null) return { kind: 'protected', path, protection };
      if (entry.isDirectory()) pending.push(path);
    }
  }
  return null;
}

/** Most names a glob's expansion looks at when it is decided. */
const GLOB_NAME_LIMIT = 5000;

/**
 * The first protected place a shell glob of a path read (`cat ~/links/*`) expands to, links
 * followed (`followed`); null when none. bash expands it when the line runs, so a link among the
 * matches (~/links/key -> ~/.ssh/id_ed25519) is read however plain the pattern's text is. More
 * names than the limit count as protected: not looked at, not cleared.
 */
export function globObstacle(
  pattern: string,
  followed: (path: string) => Protection | null,
): Protection | null {
  const segments = pattern.split('/').filter((segment) => segment !== '');
  let current = ['/'];
  let seen = 0;
  for (const segment of segments) {
    if (!/[*?[]/.test(segment)) {
      current = current.map((dir) => join(dir, segment));
      continue;
    }
    let matcher: RegExp;
    try {
      matcher = globToRegExp(segment);
    } catch {
      return null;
    }
    const next: string[] = [];
    for (const dir of current) {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        continue;
      }
      for (const name of names) {
        // bash's globs skip dot names unless the pattern itself starts with a dot.
        if (name.startsWith('.') && !segment.startsWith('.')) continue;
        if (!matcher.test(name)) continue;
        seen += 1;
        if (seen > GLOB_NAME_LIMIT) return TOO_MANY_NAMES;
        next.push(join(dir, name));
      }
    }
    current = next;
  }
  for (const path of current) {
    const protection = followed(path);
    if (protection !== null) return protection;
  }
  return null;
}

const TOO_MANY_NAMES: Protection = {
  name: 'more names than a decision looks at',
  why: 'a glob that expands to that many names is not cleared without a card',
};
