// The policy's use of the workspace catalogue: a shell call whose every command is read-only or
// a workspace rule runs without a card when every path it writes loses nothing. Paths are
// resolved from the call's working directory, symlinks included, then each write must be:
// in the sandbox's private /tmp or /dev (gone when the call ends; the only place a delete may
// happen), or inside roots.write, past the guard, outside the places where a new file changes
// what runs later (hidden files and dirs, ~/bin, Custode's own dirs), and new when it creates
// a file.
// A call that runs the project's own code (npm test, make, ./build.sh) may write only its git
// work tree, with .git read-only, or nothing when it is not in one.
// The call then runs with only the directories it writes made writable.
import { dirname, join } from 'node:path';
import { hiddenByPrivateTmp } from '../../../executors/sandbox/bwrap-args.ts';
import type { Config } from '../../config.ts';
import type { ParsedShell } from '../../shell/types.ts';
import { guardCall } from '../../vaglio/guard.ts';
import { isUnder } from '../../vaglio/normalize-path.ts';
import { checkHints } from '../check-hints.ts';
import type { ReadOnlyCatalogue } from '../read-only.ts';
import { readPathCheck, type ShellScope } from '../read-only-policy.ts';
import { absoluteUserPath, resolveThroughSymlinks } from '../scope-paths.ts';
import { BUILT_IN_WORKSPACE } from './catalogue.ts';
import { RUNNER_WORKSPACE } from './runners.ts';
import type { WorkspaceTarget } from './spec.ts';
import {
  hasGlob,
  loadWorkspaceCatalogue,
  matchWorkspace,
  type WorkspaceCatalogue,
} from './match.ts';

/** The scope of one call plus what the workspace checks need from the file system. */
export interface WorkspaceScope extends ShellScope {
  readonly isDirectory: (path: string) => boolean;
  /** Anything is there, a dangling symlink included: writing through one lands elsewhere. */
  readonly entryExists: (path: string) => boolean;
  /** Custode's own config, data and state dirs: never written without a card. */
  readonly ownDirs: readonly string[];
}

/** An uncarded workspace call: the rules that matched and what the sandbox may write. */
export interface WorkspaceDecision {
  readonly rule: string;
  readonly writable: readonly string[];
  /** Places inside `writable` that stay read-only (a work tree's .git, for project code). */
  readonly readOnlyWithin: readonly string[];
}

/** The guard and roots.write on one path the command writes. */
function writeOk(path: string, scope: WorkspaceScope): boolean {
  if (guardCall({ executor: 'fs_write', args: { path }, home: scope.home }).blocked) return false;
  const checked = {
    ...scope,
    args: { path },
    shell: null,
    executor: { ...scope.executor, capabilities: { access: 'write' as const, pathArgs: ['path'] } },
  };
  return checkHints(checked).kind === 'pass';
}

function nearestExisting(path: string, scope: WorkspaceScope): string {
  for (let current = path; ; current = dirname(current)) {
    const real = scope.realPath(current);
    if (real !== null || current === '/') return real ?? '/';
  }
}

/**
 * A write here could change what runs later or Custode's own records: the home itself, ~/bin,
 * and anything hidden (a dot-named file or directory anywhere in the path: .git, .husky,
 * .envrc, .cargo/config.toml, .npmrc and ~/.bashrc are how tools find their hooks and settings).
 */
function isProtected(path: string, scope: WorkspaceScope): boolean {
  const home = scope.realHome;
  if (path === home || isUnder(path, join(home, 'bin'))) return true;
  if (path.split('/').some((segment) => segment.startsWith('.'))) return true;
  return scope.ownDirs.some((dir) => isUnder(path, dir));
}

/**
 * In the sandbox's own /tmp or /dev, both fresh tmpfs that vanish with the call (its /dev holds
 * only null, zero, full, random, urandom and tty; the guard has refused raw devices already).
 * The path is taken as written: inside the sandbox the host's symlinks there do not exist.
 */
function inSandboxScratch(absolute: string, scope: WorkspaceScope): boolean {
  return isUnder(absolute, '/dev') || hiddenByPrivateTmp(absolute, scope.roots.write, scope.home);
}

/** The directory to make writable for this target; undefined when it is in the private /tmp. */
type TargetCheck = { readonly ok: false } | { readonly ok: true; readonly dir?: string };

function checkTarget(target: WorkspaceTarget, cwd: string, scope: WorkspaceScope): TargetCheck {
  const { home, realPath } = scope;
  const absolute = absoluteUserPath(target.path, home, cwd);
  if (inSandboxScratch(absolute, scope)) return { ok: true };
  if (target.mode === 'remove' || hasGlob(target.path)) return { ok: false };
  if (target.mode === 'create' && scope.entryExists(absolute)) return { ok: false };
  const path = resolveThroughSymlinks(absolute, realPath);
  if (!writeOk(absolute, scope) || isProtected(path, scope)) return { ok: false };
  return { ok: true, dir: nearestExisting(dirname(path), scope) };
}

/** The git work tree cwd is in: the nearest directory from cwd up that holds .git, or null. */
function findRepository(cwd: string, scope: WorkspaceScope): string | null {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (scope.realPath(join(dir, '.git')) !== null) return dir;
    if (dir === '/') return null;
  }
}

/**
 * What project code may write: its git work tree, when that is inside roots.write and is not
 * the home or a hidden or protected place; its .git stays read-only, so history survives
 * whatever the code does. Outside such a work tree it may write nothing.
 */
function projectWritable(
  cwd: string,
  writable: ReadonlySet<string>,
  scope: WorkspaceScope,
): { writable: string[]; readOnlyWithin: string[] } | null {
  const root = findRepository(cwd, scope);
  const usable = root !== null && writeOk(root, scope) && !isProtected(root, scope);
  // The call's other writes must fall inside what the code may write anyway.
  if ([...writable].some((dir) => !usable || !isUnder(dir, root))) return null;
  return usable
    ? { writable: [root], readOnlyWithin: [join(root, '.git')] }
    : { writable: [], readOnlyWithin: [] };
}

/** The workspace rules that let this shell call run without a card, or null (it asks). */
export function workspaceDecisionFor(
  shell: ParsedShell,
  readOnly: ReadOnlyCatalogue | null,
  workspace: WorkspaceCatalogue,
  scope: WorkspaceScope,
): WorkspaceDecision | null {
  const { cwd } = scope;
  const match = matchWorkspace(shell, readOnly, workspace, {
    readOk: readPathCheck(scope),
    isDirectory: (path) => scope.isDirectory(absoluteUserPath(path, scope.home, cwd)),
  });
  if (match === null) return null;
  const writable = new Set<string>();
  for (const target of match.targets) {
    const checked = checkTarget(target, cwd, scope);
    if (!checked.ok) return null;
    if (checked.dir !== undefined) writable.add(checked.dir);
  }
  if (match.runs) {
    // git needs .git writable, which project code must not have.
    if (match.repository) return null;
    const project = projectWritable(cwd, writable, scope);
    return project === null ? null : { rule: match.rule, ...project };
  }
  if (match.repository) {
    const root = findRepository(cwd, scope) ?? cwd;
    // A repository may be the home itself (dotfiles): git writes only its own .git there.
    const inHome = root === scope.realHome;
    if (!writeOk(root, scope) || (!inHome && isProtected(root, scope))) return null;
    writable.add(root);
  }
  return { rule: match.rule, writable: [...writable], readOnlyWithin: [] };
}

/**
 * The workspace catalogue when the config allows it, else null: it is off by config, and off
 * when the sandbox is off or has network, because the narrowed sandbox is part of its promise.
 */
export function workspaceCatalogueFor(config: Config): WorkspaceCatalogue | null {
  const { sandbox, approvals, roots } = config;
  const settings = approvals.workspace_catalogue;
  if (!settings.enabled || sandbox.mode !== 'bwrap' || sandbox.network) return null;
  // Project code reads what the sandbox lets it read, which read roots do not narrow.
  const projectCode = settings.project_code && roots.read === undefined;
  return loadWorkspaceCatalogue(
    projectCode
      ? BUILT_IN_WORKSPACE
      : BUILT_IN_WORKSPACE.filter((rule) => !RUNNER_WORKSPACE.includes(rule)),
  );
}
