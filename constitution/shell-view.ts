// What the dangerous-shell rules see besides one command, and the trees whose loss no one
// recovers from. Shared by the rule families (dangerous-shell.ts, mass-delete.ts, foreign-code.ts).
import type { ParsedShell, ShellCommand, ShellWord } from '../runtime/shell/types.ts';

/** What a rule sees besides the command: the whole parse, and the possible values of a path word. */
export interface ShellView {
  readonly parsed: ParsedShell;
  readonly home: string;
  /** Normalised values a word can take as a path (variables substituted; unknown ones empty). */
  paths(word: ShellWord): readonly string[];
  /**
   * The text a file named by this word holds when the line uses it: what the line itself wrote
   * there, else (when the caller can read the disk) what the existing file holds; null if unknown.
   */
  fileText(word: ShellWord): string | null;
  /** The absolute directories a command of the line may run in (cd and the call's cwd followed). */
  workingDirs(command: ShellCommand): readonly string[];
}

// Trees owned by the package manager and the kernel: writing into them changes the system itself.
export const WRITE_PROTECTED = [
  '/etc',
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/boot',
  '/sys',
  '/proc',
];
// Trees whose loss (recursive delete, move, chmod -R) leaves no working system.
const SYSTEM_TREES: ReadonlySet<string> = new Set([
  ...WRITE_PROTECTED,
  ...['/var', '/opt', '/srv', '/home', '/root', '/dev', '/snap', '/nix'],
  ...['/System', '/Library', '/Applications', '/Users', '/Volumes', '/private'],
]);
const GLOB = /[*?[]/;
// A last segment that names no name, only kinds of names (`*`, `.*`, `?*`, `[a-z]*`, `[!.]*`):
// a glob over (nearly) every entry of the directory before it.
const EVERY_ENTRY = /\/(?=[^/]*\*)(?:[*?.]|\[!?\]?[^\]/]*\])+$/;
// Scratch space: a home inside it is a throwaway one (tests, evals), and it is cleaned anyway.
export const SCRATCH_ROOTS: readonly string[] = ['/tmp', '/var/tmp', '/private/tmp'];

/** `path` is one of `trees` or inside one. */
export function under(path: string, trees: readonly string[]): boolean {
  return trees.some((tree) => path === tree || path.startsWith(`${tree}/`));
}

// macOS and Windows file systems ignore case by default: `/USERS/ADA` there is the home.
const SYSTEM_TREES_ANY_CASE: ReadonlySet<string> = new Set(
  [...SYSTEM_TREES].map((tree) => tree.toLowerCase()),
);

/**
 * `/`, a home, a directory holding the home (/data when the home is /data/ada), a system tree,
 * or a glob over every entry of one of them (`/*`, `~/.*`, `~/?*`, `~/[a-z]*`, `/e*`): never
 * deleted whole. Case is ignored (see above): `rm -rf "${HOME^^}"` takes the home where the file
 * system folds case.
 */
export function isCriticalTree(path: string, home: string): boolean {
  if (path === '') return false;
  // ~user is another account's home.
  if (/^~[^/]*\/?$/.test(path)) return true;
  let p = path.toLowerCase();
  const ownHome = home.toLowerCase();
  while (EVERY_ENTRY.test(p)) p = p.slice(0, p.lastIndexOf('/')) || '/';
  if (p === '/' || p === ownHome || SYSTEM_TREES_ANY_CASE.has(p)) return true;
  if (p.startsWith('/') && ownHome.startsWith(`${p}/`) && !SCRATCH_ROOTS.includes(p)) return true;
  // A glob in the first segment can match anything at the root.
  if (GLOB.test(p.split('/')[1] ?? '')) return p.startsWith('/');
  return /^\/(?:home|users)\/[^/]+$/.test(p);
}

/** Some value of some word passes `test`. */
export function anyPath(
  words: readonly ShellWord[],
  view: ShellView,
  test: (path: string) => boolean,
): boolean {
  return words.some((word) => view.paths(word).some(test));
}

/** A made-up literal word (a name a command derives, like the file curl -O saves). */
export function literal(text: string): ShellWord {
  return { text, literal: true, glob: false, parts: [{ kind: 'text', text }] };
}
