// The paths a workspace call writes, checked one by one and together. Each must be in the
// sandbox's private /tmp or /dev (gone when the call ends; the only place a delete may happen),
// or inside roots.write, past the guard, outside the places where a new file changes what runs
// later (hidden files and dirs, ~/bin, Custode's own dirs), and new when it creates a file.
// Together: no path is written twice or inside what another write fills. (The policy keeps a
// call to scratch or the workspace, never both: a symlink copied into /tmp could join them.)
import { basename, dirname, join } from 'node:path';
import { gitRunPlaces } from '../../../constitution/git-programs.ts';
import { hiddenByPrivateTmp } from '../../../executors/sandbox/bwrap-args.ts';
import { isUnder } from '../../vaglio/normalize-path.ts';
import { namePattern } from '../../shell/glob-name.ts';
import { absoluteUserPath, climbsThroughName, resolveThroughSymlinks } from '../scope-paths.ts';
import { hasGlob } from './match.ts';
import { findRepository, type WorkspaceScope } from './policy.ts';
import type { WorkspaceTarget } from './spec.ts';

/** Out of every protected place and inside roots.write: one path the command writes. */
export function writeOk(path: string, scope: WorkspaceScope): boolean {
  return scope.paths.protection(path) === null && scope.paths.inRoots(path, 'write');
}

function nearestExisting(path: string, scope: WorkspaceScope): string {
  for (let current = path; ; current = dirname(current)) {
    const real = scope.realPath(current);
    if (real !== null || current === '/') return real ?? '/';
  }
}

/**
 * Inside a directory whose own files run on the host, known by what it holds, whatever its name:
 * a git directory (a bare ~/repos/app.git, a work tree's separate git dir), whose hooks and config
 * run like those of any `.git`; a Python environment (its pyvenv.cfg), whose interpreter runs
 * every .pth file and sitecustomize.py at each start, and whose bin/ holds its commands.
 */
function inRunningPlace(path: string, scope: WorkspaceScope): boolean {
  for (let dir = path; ; dir = dirname(dir)) {
    if (
      scope.entryExists(join(dir, 'HEAD')) &&
      scope.isDirectory(join(dir, 'objects')) &&
      scope.isDirectory(join(dir, 'refs'))
    )
      return true;
    if (scope.entryExists(join(dir, 'pyvenv.cfg'))) return true;
    if (dir === '/') return false;
  }
}

/** An interpreter's installed packages, outside an environment too (a vendored dist-packages). */
const PACKAGE_DIRS: ReadonlySet<string> = new Set(['site-packages', 'dist-packages']);

/**
 * A file git itself runs, as the config its work tree (or, outside one, the home) sees names it:
 * in a hooks directory (core.hooksPath: a tracked `githooks/`, or ~/git-hooks from the global
 * config) or a word of a command a key gives git to start (`core.fsmonitor = ./fsmonitor.sh`,
 * a filter's `sh scripts/clean.sh`). A config git could not list in a work tree may name any.
 */
function runByGit(path: string, scope: WorkspaceScope): boolean {
  const tree = findRepository(dirname(path), scope);
  const base = tree ?? scope.realHome;
  const config = scope.gitConfig(base);
  if (config === null) return tree !== null;
  const places = gitRunPlaces(config);
  const where = (word: string): string[] => {
    const named = absoluteUserPath(word, scope.home, base);
    return [named, scope.paths.real(named)];
  };
  return (
    places.hooksDirs.some((dir) => where(dir).some((place) => isUnder(path, place))) ||
    places.programWords.some((word) => where(word).includes(path))
  );
}

/**
 * A write here could change what runs later or Custode's own records: the home itself, ~/bin,
 * the PATH's directories and their install prefixes, Custode's own code, anything hidden (a
 * dot-named file or directory anywhere in the path: .git, .husky, .envrc, .cargo/config.toml,
 * .npmrc and ~/.bashrc are how tools find their hooks and settings), any git directory or
 * Python environment (site-packages, a venv), a file git runs (a hooks directory its config names, a program it starts), and where a link among
 * those leads (~/.bashrc -> ~/dotfiles/bashrc). Callers ask for the path as
 * written and as its links resolve.
 */
export function isProtected(path: string, scope: WorkspaceScope): boolean {
  const home = scope.realHome;
  if (path === home || isUnder(path, join(home, 'bin')) || isUnder(path, join(scope.home, 'bin')))
    return true;
  const segments = path.split('/');
  if (segments.some((segment) => segment.startsWith('.') || PACKAGE_DIRS.has(segment))) return true;
  if (scope.protectedDirs().some((dir) => isUnder(path, dir))) return true;
  return inRunningPlace(path, scope) || runByGit(path, scope);
}

/**
 * The sandbox's own /dev entries a command may write: its device nodes, its output streams, and
 * /dev/shm, all fresh for the call. Not below the fd, stdin, stdout and stderr links: they lead
 * into /proc/self, so with `< .` /dev/stdin/notes.txt is the working directory's notes.txt.
 */
const SANDBOX_DEVICES: ReadonlySet<string> = new Set([
  '/dev/null',
  '/dev/zero',
  '/dev/full',
  '/dev/tty',
  '/dev/stdout',
  '/dev/stderr',
  '/dev/fd/1',
  '/dev/fd/2',
]);

/**
 * In the sandbox's private /tmp or one of its fresh /dev entries, gone when the call ends. The
 * path is taken as written: inside the sandbox the host's symlinks there do not exist.
 */
function inSandboxScratch(absolute: string, scope: WorkspaceScope): boolean {
  if (SANDBOX_DEVICES.has(absolute) || isUnder(absolute, '/dev/shm')) return true;
  return hiddenByPrivateTmp(absolute, scope.roots.write, scope.home);
}

/** The directory to make writable and the resolved path; neither when it is scratch. */
type TargetCheck =
  { readonly ok: false } | { readonly ok: true; readonly dir?: string; readonly path?: string };

/**
 * A glob in the last segment of a path written (mv ~/Downloads/*.jpg ~/Pictures/, or a name a
 * substitution prints: > journal/$(date +%F).md): a file or directory made where its directory
 * holds no name the pattern matches, so whatever it becomes when the call runs replaces
 * nothing; a move away or an append where every name it matches now is one a plain move or
 * append could take.
 */
function checkPattern(target: ResolvedTarget, scope: WorkspaceScope): TargetCheck {
  // Only the last name may be a pattern: one in a directory (~/no*/todo.md) names existing files.
  if (hasGlob(dirname(target.absolute))) return { ok: false };
  const name = basename(target.absolute);
  const pattern = namePattern(name);
  if (pattern === null) return { ok: false };
  const dir = scope.realPath(dirname(target.absolute));
  // A directory not made yet holds no names (the line makes it first: mkdir -p … && …).
  const names = dir === null ? [] : scope.namesIn(dir);
  if (names === null) return { ok: false };
  const matches = names.filter((entry) => pattern.test(entry));
  if (
    target.mode === 'create' ||
    target.mode === 'mkdir' ||
    (target.mode === 'append' && matches.length === 0)
  ) {
    const path = join(dir ?? dirname(target.resolved), name);
    if (matches.length > 0 || !writeOk(path, scope) || isProtected(path, scope))
      return { ok: false };
    return { ok: true, dir: nearestExisting(dirname(path), scope), path };
  }
  // Moved away, or added to at its end: each name it matches now as a plain move or append;
  // an append to no name makes a file.
  if ((target.mode !== 'move' && target.mode !== 'append') || dir === null) return { ok: false };
  const each = matches.map((entry) => {
    const path = join(dir, entry);
    return checkTarget({ ...target, path, absolute: path, resolved: path }, scope);
  });
  return each.every((check) => check.ok) ? { ok: true, dir } : { ok: false };
}

function checkTarget(target: ResolvedTarget, scope: WorkspaceScope): TargetCheck {
  const { absolute, resolved: path } = target;
  if (inSandboxScratch(absolute, scope)) return { ok: true };
  if (target.mode === 'remove') return { ok: false };
  if (hasGlob(target.path)) return checkPattern(target, scope);
  const exists = scope.entryExists(absolute);
  if (target.mode === 'create' && exists) return { ok: false };
  // A link into /tmp leads into the sandbox's private one: a file moved there is gone.
  if (inSandboxScratch(path, scope)) return { ok: false };
  // An append to a file git can give back, link-free (tiers/restorable-append.ts checked it).
  if (target.mode === 'append' && path === absolute && scope.restorableAppends?.has(path) === true)
    return { ok: true, dir: dirname(path), path };
  // Appending reaches whatever a link makes of the file (~/.bashrc -> ~/dotfiles/bashrc): only
  // to a file that is new, that a call without a card wrote, or a plain notes, log or table
  // file (judged where its links lead) that nothing runs: the append only adds lines.
  if (
    target.mode === 'append' &&
    exists &&
    !scope.unreviewed.pending().includes(path) &&
    !scope.isAppendableData(path)
  )
    return { ok: false };
  if (!writeOk(absolute, scope) || isProtected(path, scope) || isProtected(absolute, scope))
    return { ok: false };
  // A tree moved between two of the sandbox's writable binds is copied, not renamed: a store's
  // hard link below it would become an ordinary file that no check knows as the store.
  if (target.mode === 'move' && scope.paths.protectedBelow(path) !== null) return { ok: false };
  return { ok: true, dir: nearestExisting(dirname(path), scope), path };
}

interface ResolvedTarget extends WorkspaceTarget {
  readonly absolute: string;
  /** Symlinks resolved: two spellings of one file are one file. */
  readonly resolved: string;
}

/**
 * A path this call writes twice, inside a file or directory another of its writes fills, or a
 * name that a pattern it writes could match: the pattern was judged against the names there
 * before the call (`mv keep.png a.jpg && mv ~/Downloads/*.jpg .` replaces what the first made).
 */
function overlaps(targets: readonly ResolvedTarget[]): boolean {
  return targets.some((filled, i) => {
    const others = targets.filter((_, k) => k !== i);
    // (A delete is allowed only in the private /tmp, where nothing of the user's can be lost.)
    const pattern =
      filled.mode !== 'remove' && hasGlob(basename(filled.resolved))
        ? namePattern(basename(filled.resolved))
        : null;
    if (
      pattern !== null &&
      others.some(
        (other) =>
          dirname(other.resolved) === dirname(filled.resolved) &&
          pattern.test(basename(other.resolved)),
      )
    )
      return true;
    return (
      filled.mode === 'create' && others.some((other) => isUnder(other.resolved, filled.resolved))
    );
  });
}

/** What a call's targets need: directories to make writable, and whether any is scratch. */
export interface TargetNeeds {
  readonly dirs: Set<string>;
  readonly scratch: boolean;
  /** The resolved paths it writes outside scratch: unreviewed once it runs (unreviewed.ts). */
  readonly written: readonly string[];
}

/**
 * The directories a workspace call must be able to write, or null when a target may not be
 * written without a card. Paths resolve from the call's cwd; `..` after a name is refused (the
 * text cannot say where a symlink's `..` leads: /dev/fd/../cwd is the cwd).
 */
export function writableFor(
  targets: readonly WorkspaceTarget[],
  scope: WorkspaceScope,
): TargetNeeds | null {
  // `~+/x` is bash's $PWD/x and `~name` someone's home: not what the text names.
  if (targets.some((target) => climbsThroughName(target.path) || /^~[^/]/.test(target.path)))
    return null;
  const resolved = targets.map((target) => {
    const absolute = absoluteUserPath(target.path, scope.home, scope.cwd);
    return { ...target, absolute, resolved: resolveThroughSymlinks(absolute, scope.realPath) };
  });
  if (overlaps(resolved)) return null;
  const writable = new Set<string>();
  const written: string[] = [];
  let scratch = false;
  for (const target of resolved) {
    const checked = checkTarget(target, scope);
    if (!checked.ok) return null;
    if (checked.dir === undefined) scratch = true;
    else writable.add(checked.dir);
    if (checked.path !== undefined) written.push(checked.path);
  }
  return { dirs: writable, scratch, written };
}
