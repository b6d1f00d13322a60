// The policy's use of the workspace catalogue: a shell call whose every command is read-only or
// a workspace rule runs without a card when every path it writes loses nothing (targets.ts).
// A call that runs the project's own code (npm test, make, ./build.sh) may write only its git
// work tree, with .git read-only, or nothing when it is not in one.
// The call then runs with only the directories it writes made writable.
import { dirname, join } from 'node:path';
import type { Config } from '../../config.ts';
import type { ParsedShell } from '../../shell/types.ts';
import { isUnder } from '../../vaglio/normalize-path.ts';
import type { ReadOnlyCatalogue } from '../read-only.ts';
import { readPathCheck, type ShellScope } from '../read-only-policy.ts';
import { absoluteUserPath } from '../scope-paths.ts';
import { BUILT_IN_WORKSPACE } from './catalogue.ts';
import { loadWorkspaceCatalogue, matchWorkspace, type WorkspaceCatalogue } from './match.ts';
import { RUNNER_WORKSPACE } from './runners.ts';
import { isProtected, writableFor, writeOk } from './targets.ts';

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
  const needs = writableFor(match.targets, scope);
  if (needs === null) return null;
  const writable = needs.dirs;
  if (match.runs) {
    // Project code runs alone: a file this call writes could be the code it runs (a new
    // Makefile, a copied interpreter), and git needs .git writable, which the code must not have.
    if (match.repository || match.targets.length > 0) return null;
    const project = projectWritable(cwd, writable, scope);
    return project === null ? null : { rule: match.rule, ...project };
  }
  if (match.repository) {
    // Outside a repository git changes nothing (it says so); the home as a repository (a
    // dotfiles repo) asks, since git add -A there stages every secret.
    const root = findRepository(cwd, scope);
    if (root !== null && (!writeOk(root, scope) || isProtected(root, scope))) return null;
    if (root !== null) writable.add(root);
  }
  // Scratch or the workspace, never both: a symlink copied into /tmp could join them.
  if (needs.scratch && writable.size > 0) return null;
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
