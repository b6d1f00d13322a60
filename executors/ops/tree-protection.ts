// What a tree read (grep -r, rg, find -exec cat, tar -c, diff -r) would open below its top:
// every entry, walked at decision time, is asked the one protected-place question, links by
// where they lead. The guard judges only the top's text, and the sandbox hides secret stores
// only where they usually live: ~/dotfiles/.netrc is protected by name but masked by no one.
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import type { Protection } from '../../constitution/protected.ts';

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

/**
 * True when every name below `top` (and `top` itself) is one word to xargs: no blank, quote or
 * backslash, which xargs would split or unquote into other paths. False past `limit` entries or
 * when a directory cannot be read; true when `top` is no directory and its own name is plain.
 */
export function namesSplitFree(top: string, limit = TREE_ENTRY_LIMIT): boolean {
  const odd = /[\s'"\\]/;
  if (odd.test(top)) return false;
  if (statSync(top, { throwIfNoEntry: false })?.isDirectory() !== true) return true;
  const pending = [top];
  let seen = 0;
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return false;
    }
    for (const entry of entries) {
      seen += 1;
      if (seen > limit || odd.test(entry.name)) return false;
      if (entry.isDirectory()) pending.push(join(dir, entry.name));
    }
  }
  return true;
}
