// Path scope for check_hints: normalise like the guard does, resolve symlinks of the part
// that exists, then compare against the configured roots.
import { isAbsolute, join } from 'node:path';
import { normalizePath } from '../vaglio/normalize-path.ts';

/** Resolves an existing path's symlinks; null when the path does not exist. Injected (no fs here). */
export type RealPath = (path: string) => string | null;

/**
 * Normalise a user path (~, $HOME, ${HOME}, .., ., //); relative paths are relative to `base`
 * (home unless a shell command runs elsewhere).
 */
export function absoluteUserPath(input: string, home: string, base: string = home): string {
  const normalised = normalizePath(input, home);
  return isAbsolute(normalised) ? normalised : normalizePath(join(base, normalised), home);
}

/**
 * True when a `..` follows a name (`a/../b`, `/dev/fd/../cwd`): through a symlink the kernel
 * climbs from where the link leads, which the text cannot tell, so such a path is not judged
 * from its text. A leading `..` climbs from the working directory, which is resolved.
 */
export function climbsThroughName(path: string): boolean {
  let named = false;
  for (const segment of path.split('/')) {
    if (segment === '..' && named) return true;
    if (segment !== '' && segment !== '.' && segment !== '..') named = true;
  }
  return false;
}

/**
 * True when a segment of `path` is hidden or a pattern that may match a hidden name (`.config`,
 * `.c*`), past any leading `./` and `../` (they climb from the working directory, which is
 * resolved). Bash matches a leading dot only where the pattern writes one: `*` never does.
 */
export function hiddenSegment(path: string): boolean {
  let leading = true;
  return path.split('/').some((segment) => {
    if (segment === '' || segment === '.') return false;
    if (leading && segment === '..') return false;
    leading = false;
    return segment.startsWith('.');
  });
}

/**
 * A tree read whole (cp -r, tar c, grep -r) judged from its text: relative, naming something
 * below the working directory, never `..` and nothing hidden. The guard sees only the top, and
 * ~/.config holds credentials.env files it forbids that the sandbox does not mask.
 */
export function containedTree(path: string): boolean {
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  return (
    !/^[/~]/.test(path) && segments.length > 0 && !segments.includes('..') && !hiddenSegment(path)
  );
}

/** The path with the symlinks of its longest existing ancestor resolved. */
export function resolveThroughSymlinks(path: string, realPath: RealPath): string {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    const real = realPath(current);
    if (real !== null) return missing.length === 0 ? real : join(real, ...missing.reverse());
    const slash = current.lastIndexOf('/');
    if (slash <= 0) return path;
    missing.push(current.slice(slash + 1));
    current = current.slice(0, slash);
  }
}

/** Where a shell call runs: its `cwd` argument resolved like any path, else the (resolved) home. */
export function shellWorkingDirectory(
  args: Readonly<Record<string, unknown>>,
  home: string,
  realHome: string,
  realPath: RealPath,
): string {
  if (typeof args.cwd !== 'string') return realHome;
  return resolveThroughSymlinks(absoluteUserPath(args.cwd, home), realPath);
}

/** The configured roots, normalised and with their own symlinks resolved; read undefined means anywhere. */
export interface ResolvedRoots {
  readonly read: readonly string[] | undefined;
  readonly write: readonly string[];
}

function resolveRoots(roots: readonly string[], home: string, realPath: RealPath): string[] {
  return roots.map((root) => resolveThroughSymlinks(absoluteUserPath(root, home), realPath));
}

/** Resolve config.roots once, when the pipeline is built (not on every decision). */
export function resolveConfiguredRoots(
  roots: { readonly read?: readonly string[] | undefined; readonly write: readonly string[] },
  home: string,
  realPath: RealPath,
): ResolvedRoots {
  return {
    read: roots.read === undefined ? undefined : resolveRoots(roots.read, home, realPath),
    write: resolveRoots(roots.write, home, realPath),
  };
}
