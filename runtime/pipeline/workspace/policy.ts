// The policy's use of the workspace catalogue: a shell call whose every command is read-only or
// a workspace rule runs without a card when every path it writes loses nothing (targets.ts).
// A call that runs the project's own code (npm test, make, ./build.sh) may write only its git
// work tree, with .git read-only, or nothing when it is not in one.
// The call then runs with only the directories it writes made writable.
import { dirname, join, relative } from 'node:path';
import type { Config } from '../../config.ts';
import type { PinnedFile } from '../grant.ts';
import type { ParsedShell } from '../../shell/types.ts';
import type { PathUse, ReadOnlyCatalogue } from '../read-only.ts';
import { readPathCheck, type ShellScope } from '../read-only-policy.ts';
import { runsOtherCode } from '../../../constitution/programs.ts';
import { absoluteUserPath } from '../scope-paths.ts';
import { isUnder } from '../../vaglio/normalize-path.ts';
import { BUILT_IN_WORKSPACE, CODE_WORKSPACE } from './catalogue.ts';
import {
  loadWorkspaceCatalogue,
  matchWorkspace,
  type WorkspaceCatalogue,
  type WorkspaceMatch,
} from './match.ts';
import { codeView } from './code-view.ts';
import type { CodeView } from '../../../executors/ops/shell-ops.ts';
import { newOutputFile } from './code-output.ts';
import { RUNNER_WORKSPACE } from './runners.ts';
import { isProtected, writableFor, writeOk } from './targets.ts';
import type { UnreviewedWrites } from './unreviewed.ts';
import type { Staging } from './spec.ts';

/** The scope of one call plus what the workspace checks need from the file system. */
export interface WorkspaceScope extends ShellScope {
  readonly isDirectory: (path: string) => boolean;
  /** Anything is there, a dangling symlink included: writing through one lands elsewhere. */
  readonly entryExists: (path: string) => boolean;
  /** A plain, non-executable notes, log or table file: an append only adds lines to it. */
  readonly isAppendableData: (path: string) => boolean;
  /** A regular file with no execute bit and one name (links not followed). */
  readonly isPlainFile: (path: string) => boolean;
  /**
   * Custode's own config, data and state dirs, and where commands are found: never written
   * without a card. Looked up when a check first asks, once per scope.
   */
  readonly protectedDirs: () => readonly string[];
  /** A directory's git config as git lists it (PathOracle.gitConfig), read once per scope. */
  readonly gitConfig: (dir: string) => string | null;
  /** Files calls without a card wrote, which project code must not run unseen. */
  readonly unreviewed: UnreviewedWrites;
  /** Existing files an append may reach because git can give them back (tiers/restorable-append.ts). */
  readonly restorableAppends?: ReadonlySet<string>;
}

/**
 * The workspace tier's answer, a run without a card: the rules that matched, what the sandbox
 * may write, what the call writes.
 */
export interface WorkspaceDecision {
  /** The workspace's file and git rules, project code (a runner), or code run read-only. */
  readonly tier: 'workspace' | 'project-code' | 'read-only-code';
  readonly rule: string;
  readonly writable: readonly string[];
  /** Places inside `writable` that stay read-only (a work tree's .git, for project code). */
  readonly readOnlyWithin: readonly string[];
  /** Resolved paths it writes outside scratch, recorded as unreviewed when it runs. */
  readonly written: readonly string[];
  /** It may replace existing files (project code, a file git can give back). */
  readonly replaces: boolean;
  /** Files the decision read the contents of (an archive): the run refuses one that changed. */
  readonly pinned: readonly PinnedFile[];
  /** Code nobody reviewed: what it sees besides the system's parts (code-view.ts); unset, all. */
  readonly codeView?: CodeView;
  /** Code nobody reviewed saving its output: the one new file it may write (code-output.ts). */
  readonly newFile?: string;
  /** What git takes from the work tree into the index or a commit (tiers/index.ts checks it). */
  readonly stages?: readonly Staging[];
}

/** The git work tree cwd is in: the nearest directory from cwd up that holds .git, or null. */
export function findRepository(cwd: string, scope: WorkspaceScope): string | null {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (scope.realPath(join(dir, '.git')) !== null) return dir;
    if (dir === '/') return null;
  }
}

/**
 * True when git records where HEAD was in `root`'s repository: its HEAD reflog exists, and git
 * appends to an existing reflog whatever core.logAllRefUpdates says.
 */
function keepsReflog(root: string, scope: WorkspaceScope): boolean {
  return scope.isPlainFile(join(root, '.git', 'logs', 'HEAD'));
}

/**
 * Why project code run in `tree` must not write now, or null: files a call without a card wrote
 * are pending review, wherever they are (runners read code and config from above their tree too:
 * ../package.json, ../conftest.py, a toolchain file). Newest first, ten at most: the file the
 * model wrote last is the one to look at.
 */
function pendingReview(tree: string, scope: WorkspaceScope): string | null {
  const pending = scope.unreviewed.pending();
  if (pending.length === 0) return null;
  const named = pending.slice(0, 10).map((path) => relative(tree, path) || path);
  const more = pending.length > 10 ? ` and ${String(pending.length - 10)} more` : '';
  return `files written without approval are unreviewed: ${named.join(', ')}${more}`;
}

/** The git work tree project code in cwd may write, or null (outside one, or not writable). */
function usableWorkTree(scope: WorkspaceScope): string | null {
  const root = findRepository(scope.cwd, scope);
  const usable =
    root !== null &&
    scope.isDirectory(join(root, '.git')) &&
    writeOk(root, scope) &&
    !isProtected(root, scope);
  return usable ? root : null;
}

/**
 * Code nobody reviewed, run where it can lose nothing and read no more than a read without a card
 * could: nothing writable but its private /tmp, and of the person's files only its work tree (its
 * credential files hidden) and the paths it names (code-view.ts); the sandbox also takes its
 * network and hides every protected place and host socket. It writes nothing, so it reviews
 * nothing: pending files stay pending. Null (it asks) when what it would see may hold a
 * credential no mask hides.
 */
function readOnlyCode(
  rule: string,
  named: readonly string[],
  scope: WorkspaceScope,
  newFile: string | null = null,
): WorkspaceDecision | null {
  const view = codeView(named, findRepository(scope.cwd, scope), scope);
  if (view === null) return null;
  const code = { tier: 'read-only-code', readOnlyWithin: [], replaces: false, pinned: [] } as const;
  if (newFile === null) return { ...code, rule, writable: [], written: [], codeView: view };
  // Its output saved as one new file: that file alone is writable, and unreviewed once written.
  const saved = `${rule}, its output to the new file ${newFile} (unreviewed)`;
  return { ...code, rule: saved, writable: [newFile], written: [newFile], codeView: view, newFile };
}

/**
 * Project code: it may write its git work tree, when that is inside roots.write and is not the
 * home or a hidden or protected place, its .git a directory kept read-only so history survives
 * whatever the code does; outside such a work tree it may write nothing. While any file a call
 * without a card wrote is pending review it runs read-only: the model must not approve its own
 * program by running it with the tree writable. A dry run (`make -n`) writes nothing either.
 */
function projectCode(
  rule: string,
  dryRun: boolean,
  scope: WorkspaceScope,
): WorkspaceDecision | null {
  const root = usableWorkTree(scope);
  const pending = pendingReview(root ?? scope.cwd, scope);
  if (pending !== null) return readOnlyCode(`${rule} (${pending})`, [], scope);
  // Project code rewrites its work tree as it likes; its history stays read-only.
  const code = {
    tier: 'project-code',
    rule,
    written: [],
    replaces: true,
    pinned: [],
  } as const;
  return root !== null && !dryRun
    ? { ...code, writable: [root], readOnlyWithin: [join(root, '.git')] }
    : { ...code, writable: [], readOnlyWithin: [] };
}

let runnersOnly: WorkspaceCatalogue | undefined;

/**
 * Why this shell call, which would run able to write (an always-allow rule lets it through, or a
 * card is shown), must name the unreviewed files: it runs the project's code or an interpreter,
 * and files a call without a card wrote are unreviewed. A rule approved the code as the person
 * knew it; a new GNUmakefile or conftest.py changes what runs. Null when nothing is pending or
 * the line runs no code from files.
 */
export function unreviewedCodeReason(
  shell: ParsedShell,
  readOnly: ReadOnlyCatalogue | null,
  scope: WorkspaceScope,
): string | null {
  if (scope.unreviewed.pending().length === 0) return null;
  runnersOnly ??= loadWorkspaceCatalogue(RUNNER_WORKSPACE);
  const runner = matchWorkspace(shell, readOnly, runnersOnly, {
    readOk: () => true,
    isDirectory: (path) => scope.isDirectory(absoluteUserPath(path, scope.home, scope.cwd)),
  });
  const code =
    runner?.runs === true ||
    shell.commands.some(
      (command) =>
        command.binary !== null && (command.binary.includes('/') || runsOtherCode(command.binary)),
    );
  if (!code) return null;
  const tree = usableWorkTree(scope) ?? scope.cwd;
  const pending = pendingReview(tree, scope);
  return pending === null
    ? null
    : `workspace: this would run code in ${tree} while ${pending}; look at them before approving`;
}

/** The workspace rules every command of this line matches (and what they write), or null. */
export function workspaceMatch(
  shell: ParsedShell,
  readOnly: ReadOnlyCatalogue | null,
  workspace: WorkspaceCatalogue,
  scope: WorkspaceScope,
): WorkspaceMatch | null {
  const isDirectory = (path: string): boolean =>
    scope.isDirectory(absoluteUserPath(path, scope.home, scope.cwd));
  const readOk = readPathCheck(scope, shell);
  const match = matchWorkspace(shell, readOnly, workspace, { readOk, isDirectory });
  if (match === null || match.placed.length === 0) return match;
  // The line reads after it moves or unpacks: a read that reaches what it put in place (the file,
  // a tree or glob directory holding it) would see what the decision never read. Listing it
  // (`ls -R out`, the metadata commands) prints no content.
  const placed = match.placed.map((path) => scope.paths.absolute(path, scope.cwd));
  const reachesPlaced = (word: string): boolean => {
    const read = scope.paths.absolute(globStem(word), scope.cwd);
    return placed.some((path) => isUnder(path, read) || isUnder(read, path));
  };
  // Nor does git asked only what its config starts or holds (`git status` after a `mv`).
  const namesOnly = (use: PathUse | undefined): boolean =>
    use?.deviceMetadata === true || use?.repository === 'programs' || use?.repository === 'config';
  return matchWorkspace(shell, readOnly, workspace, {
    readOk: (word, use) => (namesOnly(use) || !reachesPlaced(word)) && readOk(word, use),
    isDirectory,
  });
}

/** The directory a glob word lists (`notes/*.txt`: `notes`), or the word itself. */
function globStem(word: string): string {
  const glob = word.search(/[*?[]/);
  if (glob < 0) return word;
  const slash = word.lastIndexOf('/', glob);
  return slash < 0 ? '.' : word.slice(0, slash) || '/';
}

/** The workspace rules that let this shell call run without a card, or null (it asks). */
export function workspaceDecisionFor(
  shell: ParsedShell,
  readOnly: ReadOnlyCatalogue | null,
  workspace: WorkspaceCatalogue,
  scope: WorkspaceScope,
): WorkspaceDecision | null {
  const { cwd } = scope;
  const match = workspaceMatch(shell, readOnly, workspace, scope);
  if (match === null) return null;
  const needs = writableFor(match.targets, scope);
  if (needs === null) return null;
  const writable = needs.dirs;
  if (match.runs || match.readOnlyCode) {
    // Code runs alone: a file this call writes could be the code it runs (a new Makefile, a
    // copied interpreter), and git needs .git writable, which the code must not have.
    if (match.readOnlyCode && match.targets.length > 0) {
      // Read-only code whose output goes to one new file: only that file is writable.
      const file = newOutputFile(shell, match, scope);
      return file === null ? null : readOnlyCode(match.rule, match.reads, scope, file);
    }
    if (match.repository || match.targets.length > 0) return null;
    return match.readOnlyCode
      ? readOnlyCode(match.rule, match.reads, scope)
      : projectCode(match.rule, match.dryRun, scope);
  }
  if (match.repository) {
    // Outside a repository git changes nothing (it says so); the home as a repository (a
    // dotfiles repo) asks, since git add -A there stages every secret.
    const root = findRepository(cwd, scope);
    if (root !== null && (!writeOk(root, scope) || isProtected(root, scope))) return null;
    // A filter its config names would run with the work tree writable (git add runs clean).
    if (root !== null && scope.paths.gitProgram(cwd) !== null) return null;
    // A soft reset or an amend leaves commits only the reflog keeps: where git writes none
    // (core.logAllRefUpdates=false, a linked work tree's own HEAD log unknown here), it asks.
    if (match.leavesCommits && (root === null || !keepsReflog(root, scope))) return null;
    if (root !== null) writable.add(root);
  }
  // Scratch or the workspace, never both: a symlink copied into /tmp could join them.
  if (needs.scratch && writable.size > 0) return null;
  return {
    tier: 'workspace',
    rule: match.rule,
    writable: [...writable],
    readOnlyWithin: [],
    written: needs.written,
    replaces: false,
    pinned: [],
    ...(match.stages.length > 0 ? { stages: match.stages } : {}),
  };
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
      : BUILT_IN_WORKSPACE.filter((rule) => !CODE_WORKSPACE.includes(rule)),
  );
}
