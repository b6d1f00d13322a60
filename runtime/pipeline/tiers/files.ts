// The file tools in the workspace tier, like their shell twins: a new file or directory inside
// an existing folder of roots.write (not the home's top level, not hidden, not protected, not
// ~/bin or a PATH dir) runs without a card, and so
// does a rewrite of a file git can give back (tracked and unmodified in its work tree). Each is
// recorded as unreviewed, as a shell write is. Overwrites of anything else and deletes ask.
import { dirname } from 'node:path';
import { climbsThroughName } from '../scope-paths.ts';
import { isProtected, writableFor, writeOk } from '../workspace/targets.ts';
import type { WorkspaceDecision, WorkspaceScope } from '../workspace/policy.ts';
import { tierScope, workspaceAnswer, type TierAnswer, type TierContext } from './index.ts';

/** File tools that create (a new path) or rewrite (an existing file) one path. */
const CREATES: ReadonlySet<string> = new Set(['fs_write', 'fs_mkdir']);
const REWRITES: ReadonlySet<string> = new Set(['fs_write', 'fs_edit', 'fs_multi_edit']);

/** Whether git can give a file back (executors/ops/git-clean.ts); injected, it reads files. */
export type TrackedClean = (path: string) => Promise<boolean>;

/** The workspace tier's answer for a file tool's call, or null (it asks). */
export async function fileToolAnswer(
  ctx: TierContext,
  trackedClean: TrackedClean,
): Promise<TierAnswer | null> {
  const { executor, args, paths, config } = ctx;
  const word = args.path;
  if (!config.approvals.workspace_catalogue.enabled || typeof word !== 'string') return null;
  if (!CREATES.has(executor.name) && !REWRITES.has(executor.name)) return null;
  const scope = tierScope(ctx, paths.realHome);
  const absolute = paths.absolute(word);
  if (!ctx.entryExists(absolute)) {
    if (!CREATES.has(executor.name)) return null;
    const needs = writableFor([{ path: word, mode: 'create' }], scope);
    // Straight into the home (a new top-level file or folder) is the person's own filing: a card.
    if (needs === null || needs.scratch || needs.dirs.has(paths.realHome)) return null;
    return workspaceAnswer(workspaceAllow('new file', [...needs.dirs], needs.written, false));
  }
  if (!REWRITES.has(executor.name)) return null;
  const real = await restorableFile(absolute, scope, trackedClean);
  if (real === null) return null;
  return workspaceAnswer(workspaceAllow(RESTORABLE, [dirname(real)], [real], true));
}

/** The rule of a rewrite that git can undo. */
export const RESTORABLE = 'a file git can give back';

/**
 * An existing file a call may rewrite without a card because git can give it back: inside
 * roots.write, not protected or hidden as written or where its links lead, tracked and
 * unmodified in its work tree. Its path with links resolved, or null. (The file tools and the
 * shell's in-place edits ask this one question; the executor asks it again before the write.)
 */
export async function restorableFile(
  absolute: string,
  scope: WorkspaceScope,
  trackedClean: TrackedClean,
): Promise<string | null> {
  const real = scope.paths.real(absolute);
  if (!writeOk(real, scope) || isProtected(real, scope) || isProtected(absolute, scope))
    return null;
  return (await trackedClean(real)) ? real : null;
}

/**
 * The absolute path of a file a shell line names, or null when a `..` follows a name in it: the
 * kernel climbs from where a link leads (`lnk/../f` is another file than the text's `f`).
 */
export function namedPath(word: string, scope: WorkspaceScope): string | null {
  return climbsThroughName(word) ? null : scope.paths.absolute(word, scope.cwd);
}

/** A workspace allow that writes `written` (in `writable`), replacing files when `replaces`. */
export function workspaceAllow(
  rule: string,
  writable: readonly string[],
  written: readonly string[],
  replaces: boolean,
): WorkspaceDecision {
  return {
    tier: 'workspace',
    rule,
    writable,
    readOnlyWithin: [],
    written,
    replaces,
    pinned: [],
  };
}
