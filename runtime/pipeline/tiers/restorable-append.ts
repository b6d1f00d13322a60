// `echo ".DS_Store" >> .gitignore`, `printf … | tee -a CHANGELOG.md`: an append to a file git can
// give back (tracked and unmodified in its work tree) loses nothing, like an fs_edit of it
// (files.ts restorableFile). Such a line runs without a card when every other command in it is
// read-only or a workspace rule and every file it writes is such an append; each is recorded as
// unreviewed, so project code asks before it runs what was added (a Makefile's new target), and
// the executor asks git again right before the run. The file must be plain (no execute bit: an
// added line in a script runs the next time it does), reached through no link, in a work tree
// inside roots.write that is not the home (a dotfiles repo there asks), no startup file's or
// ~/.config entry's link target (~/.bashrc -> ~/dotfiles/bashrc), in no hidden, protected
// or git directory (.git/hooks, .github/workflows, .husky), and visible itself, except the
// ignore lists (`.gitignore`, `.dockerignore`, `.prettierignore`): lists of names that no tool
// runs. ~/.bashrc, being in no work tree but the home's, keeps asking.
import { basename, dirname, join } from 'node:path';
import type { ParsedShell } from '../../shell/types.ts';
import { isUnder } from '../../vaglio/normalize-path.ts';
import type { ReadOnlyCatalogue } from '../read-only.ts';
import { hasGlob } from '../workspace/match.ts';
import type { WorkspaceCatalogue } from '../workspace/match.ts';
import {
  findRepository,
  workspaceDecisionFor,
  workspaceMatch,
  type WorkspaceDecision,
  type WorkspaceScope,
} from '../workspace/policy.ts';
import { isProtected, writeOk } from '../workspace/targets.ts';
import { RESTORABLE, type TrackedClean } from './files.ts';

/** A list of names a tool leaves out (.gitignore, .dockerignore): data that nothing runs. */
const IGNORE_LIST = /^\.[a-z]+ignore$/;

/** Whether a line may append to this existing file without a card: see the header. */
async function appendRestorable(
  absolute: string,
  scope: WorkspaceScope,
  trackedClean: TrackedClean,
): Promise<boolean> {
  const dir = dirname(absolute);
  const name = basename(absolute);
  if (scope.paths.real(absolute) !== absolute || !scope.isPlainFile(absolute)) return false;
  if (!writeOk(absolute, scope) || isProtected(dir, scope)) return false;
  // A file a startup file or ~/.config links to (~/.bashrc -> ~/dotfiles/bashrc) is that file.
  if (scope.protectedDirs().some((place) => isUnder(absolute, place))) return false;
  if (name.startsWith('.') && !IGNORE_LIST.test(name)) return false;
  const tree = findRepository(dir, scope);
  if (tree === null || isUnder(scope.realHome, tree) || isProtected(tree, scope)) return false;
  return trackedClean(absolute);
}

/**
 * The workspace decision for a line whose appends to existing files all reach files git can
 * give back, or null (it asks).
 */
export async function restorableAppendDecision(
  shell: ParsedShell,
  readOnly: ReadOnlyCatalogue | null,
  workspace: WorkspaceCatalogue,
  scope: WorkspaceScope,
  trackedClean: TrackedClean,
): Promise<WorkspaceDecision | null> {
  const match = workspaceMatch(shell, readOnly, workspace, scope);
  if (match === null || match.runs || match.repository) return null;
  const appended = match.targets
    .filter((target) => target.mode === 'append' && !hasGlob(target.path))
    .map((target) => scope.paths.absolute(target.path, scope.cwd))
    .filter((absolute) => scope.entryExists(absolute));
  const restorable = new Set<string>();
  for (const absolute of appended)
    if (await appendRestorable(absolute, scope, trackedClean)) restorable.add(absolute);
  if (restorable.size === 0) return null;
  const decided = workspaceDecisionFor(shell, readOnly, workspace, {
    ...scope,
    restorableAppends: restorable,
  });
  // Every file it writes is one git gives back: the executor asks git again for each of them.
  if (decided?.tier !== 'workspace' || !decided.written.every((path) => restorable.has(path)))
    return null;
  const histories = decided.writable
    .map((dir) => join(dir, '.git'))
    .filter((git) => scope.isDirectory(git));
  return {
    ...decided,
    rule: `append: ${RESTORABLE}`,
    replaces: true,
    readOnlyWithin: histories,
  };
}
