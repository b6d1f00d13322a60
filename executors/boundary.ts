// Defence in depth behind check_hints: an executor re-checks, at run time and with symlinks
// resolved, that its path is inside the configured roots, so a link planted between the
// decision and the run cannot carry a write outside them.
import { basename, dirname, join } from 'node:path';
import { PathOutsideBoundary, PermissionDenied } from '../runtime/errors.ts';
import type { ExecutorContext } from './define.ts';
import { fileIdentity } from './ops/archive-members.ts';
import { isTrackedClean } from './ops/git-clean.ts';
import { isPublicKeyFile } from './ops/public-key-file.ts';
import { protectedCheck, protectedDirsOf } from './protected-places.ts';
import { resolvePath } from './resolve-path.ts';
import { isUnder } from '../runtime/vaglio/normalize-path.ts';

/** The path with the symlinks of its longest existing ancestor resolved. */
async function realPathOfLongestAncestor(path: string, ctx: ExecutorContext): Promise<string> {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    const real = await ctx.ops.fs.realpath(current).catch(() => undefined);
    if (real !== undefined) return join(real, ...missing.reverse());
    if (current === dirname(current)) return path;
    missing.push(basename(current));
    current = dirname(current);
  }
}

/**
 * The absolute paths this call may write: an uncarded tier's own list (its grant), else config
 * roots.write with ~ expanded. One place for every executor.
 */
export function writableRootsOf(ctx: ExecutorContext): readonly string[] {
  return ctx.grant.by === 'tier' ? ctx.grant.writable : configuredWriteRoots(ctx);
}

/** roots.write from the config, with ~ expanded. */
export function configuredWriteRoots(ctx: ExecutorContext): readonly string[] {
  return ctx.config.roots.write.map((root) => resolvePath(root, ctx.env));
}

/** Which roots a check uses, and how the denial names them. */
function rootsFor(
  access: 'read' | 'write',
  ctx: ExecutorContext,
): { roots: readonly string[] | undefined; source: string } {
  if (access === 'read') return { roots: ctx.config.roots.read, source: 'roots.read in config' };
  return {
    roots: writableRootsOf(ctx),
    source:
      ctx.grant.by === 'tier'
        ? 'this call was allowed without approval and may write only what its decision names'
        : 'roots.write in config',
  };
}

/**
 * Throw PathOutsideBoundary unless `path` (absolute) lies in the writable roots (for writes,
 * see writableRootsOf) or in roots.read (for reads, only when that list is configured).
 */
export async function assertInRoots(
  path: string,
  access: 'read' | 'write',
  ctx: ExecutorContext,
): Promise<void> {
  const { roots, source } = rootsFor(access, ctx);
  if (roots === undefined) return;
  const real = await realPathOfLongestAncestor(path, ctx);
  // An uncarded tier's roots are the places its decision resolved: a link swapped in for one
  // since (a folder replaced by a link to ~/bin) is not followed to somewhere nobody judged.
  const resolvedRoots =
    access === 'write' && ctx.grant.by === 'tier'
      ? roots
      : await Promise.all(
          roots.map((root) => realPathOfLongestAncestor(resolvePath(root, ctx.env), ctx)),
        );
  if (!resolvedRoots.some((root) => isUnder(real, root))) {
    throw new PathOutsideBoundary(
      `${path}${real === path ? '' : ` (really ${real})`} is outside the ${access} roots (${source})`,
    );
  }
}

/**
 * Resolve a model-supplied path (see resolvePath) and check it against the roots. With
 * `followLink: false` a final symlink is judged by where it sits, not where it points
 * (fs_delete removes the link itself).
 */
export async function resolveInRoots(
  raw: string,
  access: 'read' | 'write',
  ctx: ExecutorContext,
  options: { followLink?: boolean } = {},
): Promise<string> {
  const path = resolvePath(raw, ctx.env);
  const checked = options.followLink === false && path !== '/' ? dirname(path) : path;
  await assertInRoots(checked, access, ctx);
  // The guard judged the text; a link can lead from a plain name to a protected place, and
  // Custode's own dirs are wherever this call's XDG_* put them.
  const real = await realPathOfLongestAncestor(checked, ctx);
  const isProtected = protectedCheck(ctx.env);
  const place = isProtected(real) ?? isProtected(path);
  // A public key file is read, never written, without the family's protection.
  if (place !== null && access === 'read' && isPublicKeyFile(path, protectedDirsOf(ctx.env)))
    return path;
  if (place !== null)
    throw new PermissionDenied(`${path} is in ${place.name}, which is never read or written`);
  return path;
}

/**
 * A call no person saw may rewrite a file only while git can give it back: the decision read it
 * tracked and unmodified, and the person may have saved new work in it since. Checked again
 * right before the write.
 */
export async function assertStillRecoverable(path: string, ctx: ExecutorContext): Promise<void> {
  if (ctx.grant.by !== 'tier' || !ctx.grant.replaces) return;
  const real = await ctx.ops.fs.realpath(path).catch(() => path);
  if (!(await isTrackedClean(real)))
    throw new PermissionDenied(
      `${path} changed since it was allowed without approval (git could give it back then); propose the change again`,
    );
}

/**
 * A call no person saw runs only on the files its decision read: an archive unpacked without a
 * card must be the same file (device, inode, size, modification and change times) whose
 * members were judged. Checked right before the run.
 */
export function assertPinnedUnchanged(ctx: ExecutorContext): void {
  if (ctx.grant.by !== 'tier') return;
  for (const { path, identity } of ctx.grant.pinned)
    if (fileIdentity(path) !== identity)
      throw new PermissionDenied(
        `${path} changed since it was allowed without approval (its contents were judged then); propose the call again`,
      );
}
