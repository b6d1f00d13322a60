// What a tree read (grep -r, rg, find -exec cat, tar -c, diff -r) would open below its top:
// every entry, walked at decision time, is asked the one protected-place question, links by
// where they lead. The guard judges only the top's text, and the sandbox hides secret stores
// only where they usually live: ~/dotfiles/.netrc is protected by name but masked by no one.
import { closeSync, openSync, readSync, readdirSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import type { Protection } from '../../constitution/protected.ts';

/** Most entries a decision walks; a larger tree is not read without a card. */
export const TREE_ENTRY_LIMIT = 20_000;

/**
 * Why a tree may not be read whole: a protected entry below it, a file holding a credential
 * (a dotenv file, a key store: constitution/credential-files.ts), or too many to look at.
 */
export type TreeObstacle =
  | { readonly kind: 'protected'; readonly path: string; readonly protection: Protection }
  | { readonly kind: 'credential'; readonly path: string; readonly protection: Protection }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'unreadable'; readonly path: string };

/** One entry of a walk, or where the walk had to stop. */
type WalkStep =
  | { readonly kind: 'entry'; readonly path: string; readonly entry: Dirent }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'unreadable'; readonly path: string };

/** A directory's identity (device and inode), following links; null when none is there. */
function directoryId(path: string): string | null {
  try {
    const stats = statSync(path);
    return stats.isDirectory() ? `${String(stats.dev)}:${String(stats.ino)}` : null;
  } catch {
    return null;
  }
}

/**
 * Every entry below the directory `top`, depth first, up to `limit` entries; a directory that
 * cannot be read, or one entry past the limit, ends the walk with that step. With `followLinks`
 * a link to a directory is walked too (each directory once), as diff -r follows it.
 */
function* walk(top: string, limit: number, followLinks = false): Generator<WalkStep> {
  const pending = [top];
  const walked = new Set([directoryId(top)]);
  let seen = 0;
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      yield { kind: 'unreadable', path: dir };
      return;
    }
    for (const entry of entries) {
      seen += 1;
      if (seen > limit) {
        yield { kind: 'too-large' };
        return;
      }
      const path = join(dir, entry.name);
      yield { kind: 'entry', path, entry };
      const id =
        entry.isDirectory() || (followLinks && entry.isSymbolicLink()) ? directoryId(path) : null;
      if (id !== null && !walked.has(id)) {
        walked.add(id);
        pending.push(path);
      }
    }
  }
}

/** The questions a tree walk asks of each entry. */
export interface TreeChecks {
  /** The protected place an entry is by its text (and a hard link's other name). */
  readonly plain: (path: string) => Protection | null;
  /** The same for a link, by where it leads too. */
  readonly followed: (path: string) => Protection | null;
  /** The credential a file holds by its name (a link's, by its own and where it leads). */
  readonly credential: (path: string, link: boolean) => Protection | null;
  /** The reader follows links to directories (diff -r): the walk goes where they lead. */
  readonly followLinks?: boolean;
}

/**
 * The first obstacle below `top` (links resolved), or null; null too when `top` is no directory.
 */
export function treeObstacle(
  top: string,
  checks: TreeChecks,
  limit = TREE_ENTRY_LIMIT,
): TreeObstacle | null {
  const { plain, followed, credential } = checks;
  // A file (or nothing) there is no tree: the path check of its own text is all there is.
  if (statSync(top, { throwIfNoEntry: false })?.isDirectory() !== true) return null;
  // The reader may fail on an unreadable dir too, or not (permissions differ in the sandbox):
  // not cleared.
  for (const step of walk(top, limit, checks.followLinks)) {
    if (step.kind !== 'entry') return step;
    const { path, entry } = step;
    const protection = entry.isSymbolicLink() ? followed(path) : plain(path);
    if (protection !== null) return { kind: 'protected', path, protection };
    if (entry.isDirectory()) continue;
    const held = credential(path, entry.isSymbolicLink());
    if (held !== null) return { kind: 'credential', path, protection: held };
  }
  return null;
}

/** What a sandbox hides of a tree it shows: credential files, and the histories that may hold them. */
export interface MaskableCredentials {
  readonly credentials: readonly string[];
  /** Every `.git` directory below the top (a repository's objects hold its files compressed). */
  readonly histories: readonly string[];
  /** Every compressed file or archive below the top: its text is not what a check of it reads. */
  readonly compressed: readonly string[];
}

/** How compressed files and archives begin: gzip, zip, bzip2, xz, zstd, 7z, rar, lz4, lzip. */
const COMPRESSED_MAGIC = [
  [0x1f, 0x8b],
  [0x50, 0x4b, 0x03, 0x04],
  [0x42, 0x5a, 0x68],
  [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00],
  [0x28, 0xb5, 0x2f, 0xfd],
  [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c],
  [0x52, 0x61, 0x72, 0x21],
  [0x04, 0x22, 0x4d, 0x18],
  [0x4c, 0x5a, 0x49, 0x50],
];

/**
 * True when the file at `path` (links followed) begins as a compressed file or an archive does:
 * code can unpack its members and print them, where a check of its bytes sees no text.
 */
export function isCompressed(path: string): boolean {
  const head = Buffer.alloc(6);
  let fd: number;
  try {
    if (statSync(path).isFile() !== true) return false;
    fd = openSync(path, 'r');
  } catch {
    return false;
  }
  try {
    const read = readSync(fd, head, 0, head.length, 0);
    return COMPRESSED_MAGIC.some(
      (magic) => magic.length <= read && magic.every((byte, i) => head[i] === byte),
    );
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/**
 * The files below `top` holding a credential the sandbox can hide (`maskable`: a dotenv file, a
 * key, a token in its text), each by the path the walk met it at and, for a link, where it leads;
 * or the obstacle a tree read would meet that no mask removes (a protected place, more text or
 * entries than a decision reads, an unreadable directory). Empty when `top` is no directory.
 */
export function maskableCredentials(
  top: string,
  checks: TreeChecks & { readonly maskable: (protection: Protection) => boolean },
  limit = TREE_ENTRY_LIMIT,
): { readonly obstacle: TreeObstacle } | MaskableCredentials {
  const credentials: string[] = [];
  const histories: string[] = [];
  const compressed: string[] = [];
  if (statSync(top, { throwIfNoEntry: false })?.isDirectory() !== true)
    return { credentials, histories, compressed };
  for (const step of walk(top, limit)) {
    if (step.kind !== 'entry') return { obstacle: step };
    const { path, entry } = step;
    const link = entry.isSymbolicLink();
    const protection = link ? checks.followed(path) : checks.plain(path);
    if (protection !== null) return { obstacle: { kind: 'protected', path, protection } };
    if (entry.name === '.git' && entry.isDirectory()) histories.push(path);
    if (entry.isDirectory()) continue;
    if (isCompressed(path)) compressed.push(path);
    const held = checks.credential(path, link);
    if (held === null) continue;
    if (!checks.maskable(held)) return { obstacle: { kind: 'credential', path, protection: held } };
    credentials.push(path);
  }
  return { credentials, histories, compressed };
}

/**
 * The first entry below `top` (or `top` itself) whose own name `secret` finds a credential in
 * (`report.pdf?access_token=…`, as wget saves a URL), or null; null too past `limit` entries or
 * when a directory cannot be read (a reader that prints names then has nothing more to print).
 */
export function secretNameBelow(
  top: string,
  secret: (name: string) => boolean,
  limit = TREE_ENTRY_LIMIT,
): string | null {
  if (secret(top.slice(top.lastIndexOf('/') + 1))) return top;
  if (statSync(top, { throwIfNoEntry: false })?.isDirectory() !== true) return null;
  for (const step of walk(top, limit)) {
    if (step.kind !== 'entry') return null;
    if (secret(step.entry.name)) return step.path;
  }
  return null;
}

/**
 * The regular files below `top` (or `top` itself) whose name `named` picks, or null past `limit`
 * entries or when a directory cannot be read (the caller cannot know what it missed).
 */
export function filesNamedBelow(
  top: string,
  named: (path: string) => boolean,
  limit = TREE_ENTRY_LIMIT,
): string[] | null {
  const stats = statSync(top, { throwIfNoEntry: false });
  if (stats?.isDirectory() !== true) return stats?.isFile() === true && named(top) ? [top] : [];
  const found: string[] = [];
  for (const step of walk(top, limit)) {
    if (step.kind !== 'entry') return null;
    if (step.entry.isFile() && named(step.path)) found.push(step.path);
  }
  return found;
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
  for (const step of walk(top, limit)) {
    if (step.kind !== 'entry' || odd.test(step.entry.name)) return false;
  }
  return true;
}

/**
 * True when no entry below `top` is a link to a directory: each path below it then names what
 * a walk that follows no link finds. (`git ls-files` prints the index's paths, which may pass
 * through a directory since replaced by a link.) False past `limit` entries or when a directory
 * cannot be read.
 */
export function linkedDirectoryFree(top: string, limit = TREE_ENTRY_LIMIT): boolean {
  if (statSync(top, { throwIfNoEntry: false })?.isDirectory() !== true) return true;
  for (const step of walk(top, limit)) {
    if (step.kind !== 'entry') return false;
    const { entry, path } = step;
    if (entry.isSymbolicLink() && statSync(path, { throwIfNoEntry: false })?.isDirectory())
      return false;
  }
  return true;
}
