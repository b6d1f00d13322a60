// What a glob read (cat ~/notes/*, wc -l *.md) would open, listed at decision time: the
// pattern's text names no protected place, but a link among the names it matches may lead to
// one (notes/netrc -> ~/dotfiles/.netrc), which the sandbox masks only where stores usually
// live. Every match is asked the one protected-place question, by where it leads.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Protection } from '../../constitution/protected.ts';
import { isGlobSegment, namePattern } from '../../runtime/shell/glob-name.ts';

/** Most names a decision lists for one glob; a larger expansion is not read without a card. */
export const GLOB_MATCH_LIMIT = 5_000;

/** Why a glob may not be read: a protected match, or one the decision could not list. */
export type GlobObstacle =
  | { readonly kind: 'protected'; readonly path: string; readonly protection: Protection }
  | { readonly kind: 'unlisted'; readonly path: string };

/** The names of `dir`, or null when it cannot be listed (missing: no names). */
function namesOf(dir: string): readonly string[] | null {
  try {
    return readdirSync(dir);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? [] : null;
  }
}

/**
 * The paths an absolute glob `pattern` expands to now, each segment as bash matches it; an
 * obstacle when a segment is a pattern bash reads otherwise (`[...]`, a dot name), a directory
 * cannot be listed, or there are more than `limit` matches.
 */
function expand(pattern: string, limit: number): readonly string[] | GlobObstacle {
  let paths = [''];
  for (const segment of pattern.split('/').slice(1)) {
    if (!isGlobSegment(segment)) {
      paths = paths.map((path) => `${path}/${segment}`);
      continue;
    }
    const matcher = namePattern(segment);
    const next: string[] = [];
    for (const dir of paths) {
      const names = matcher === null ? null : namesOf(dir || '/');
      if (names === null || matcher === null) return { kind: 'unlisted', path: dir || '/' };
      for (const name of names) if (matcher.test(name)) next.push(join(dir || '/', name));
      if (next.length > limit) return { kind: 'unlisted', path: dir || '/' };
    }
    paths = next;
  }
  return paths;
}

/** The first obstacle among the names `pattern` matches (links by where they lead), or null. */
export function globObstacle(
  pattern: string,
  protection: (path: string) => Protection | null,
  limit = GLOB_MATCH_LIMIT,
): GlobObstacle | null {
  const matches = expand(pattern, limit);
  if (!Array.isArray(matches)) return matches as GlobObstacle;
  for (const path of matches) {
    const found = protection(path);
    if (found !== null) return { kind: 'protected', path, protection: found };
  }
  return null;
}
