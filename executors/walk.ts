// A depth-first walk over a directory tree through FsOps, shared by fs_grep and fs_glob.
// Symlinked directories are not followed (no loops, no escaping the root through a link), and a
// protected place below the root is neither entered nor named (constitution/protected.ts).
// Like ripgrep, it honours each directory's .gitignore (the `ignore` library reads the format)
// and never enters node_modules or version-control internals.
import ignore, { type Ignore } from 'ignore';
import { join } from 'node:path';
import type { FsOps } from './ops/fs-ops.ts';
import type { ProtectedCheck } from './protected-places.ts';

/** One entry met by walkTree. */
export interface WalkEntry {
  /** Absolute path. */
  readonly path: string;
  /** Path relative to the walk root, with `/` separators. */
  readonly relative: string;
  readonly isDirectory: boolean;
  readonly isSymbolicLink: boolean;
}

/** Directories whose contents are noise for a search (version-control internals, installed packages). */
const skippedDirectories = new Set(['.git', '.hg', '.svn', 'node_modules']);

/** The .gitignore rules in force in one directory, each with the directory it was found in. */
type IgnoreRules = readonly { readonly base: string; readonly rules: Ignore }[];

/** The rules for `dir`: its parent's, plus its own .gitignore if it has one. */
async function rulesFor(
  fs: FsOps,
  dir: string,
  relative: string,
  inherited: IgnoreRules,
): Promise<IgnoreRules> {
  const text = await fs.readFile(join(dir, '.gitignore')).then(
    (data) => data.toString('utf8'),
    () => undefined,
  );
  return text === undefined
    ? inherited
    : [...inherited, { base: relative, rules: ignore().add(text) }];
}

/**
 * The one place a walk decides what to do with an entry: skip it (a .gitignore above it names
 * it), list it, or list and enter it (a directory not named in skippedDirectories).
 */
function decide(
  name: string,
  relative: string,
  isDirectory: boolean,
  rules: IgnoreRules,
): 'skip' | 'list' | 'enter' {
  const ignored = rules.some(({ base, rules: gitignore }) => {
    const inside = base === '' ? relative : relative.slice(base.length + 1);
    return gitignore.ignores(isDirectory ? `${inside}/` : inside);
  });
  if (ignored) return 'skip';
  return isDirectory && !skippedDirectories.has(name) ? 'enter' : 'list';
}

/** Entries one search may visit: a walk over a whole home directory must end. */
export const maxWalkEntries = 200_000;

/** How many more entries a walk may yield; 0 afterwards means the walk was cut short. */
export interface WalkBudget {
  remaining: number;
}

/**
 * Yield every entry under `root` (not the root itself) in name order, depth first, until the
 * budget runs out, skipping whatever `isProtected` names; throws when `signal` aborts.
 */
export async function* walkTree(
  fs: FsOps,
  root: string,
  signal: AbortSignal,
  isProtected: ProtectedCheck,
  budget: WalkBudget = { remaining: maxWalkEntries },
): AsyncGenerator<WalkEntry> {
  const pending: { dir: string; relative: string; rules: IgnoreRules }[] = [
    { dir: root, relative: '', rules: [] },
  ];
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
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const rules = entries.some((entry) => entry.name === '.gitignore' && entry.isFile())
      ? await rulesFor(fs, next.dir, next.relative, next.rules)
      : next.rules;
    const subdirectories: { dir: string; relative: string; rules: IgnoreRules }[] = [];
    for (const entry of entries) {
      const relative = next.relative === '' ? entry.name : `${next.relative}/${entry.name}`;
      const isDirectory = entry.isDirectory();
      const action = decide(entry.name, relative, isDirectory, rules);
      if (action === 'skip') continue;
      if (budget.remaining <= 0) return;
      budget.remaining -= 1;
      const path = join(next.dir, entry.name);
      if (isProtected(path) !== null) continue;
      yield { path, relative, isDirectory, isSymbolicLink: entry.isSymbolicLink() };
      if (action === 'enter') subdirectories.push({ dir: path, relative, rules });
    }
    // Reversed onto the stack so the first subdirectory is walked first.
    pending.push(...subdirectories.reverse());
  }
}
