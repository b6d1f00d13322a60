// What a glob read (cat ~/notes/*, wc -l *.md) would open, listed at decision time: the
// pattern's text names no protected place, but a link among the names it matches may lead to
// one (notes/netrc -> ~/dotfiles/.netrc), which the sandbox masks only where stores usually
// live. The path oracle asks every match the protected-place questions, by where it leads.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Protection } from '../../constitution/protected.ts';
import { isGlobSegment, namePattern } from '../../runtime/shell/glob-name.ts';

/** Most names a decision lists for one glob; a larger expansion is not read without a card. */
export const GLOB_MATCH_LIMIT = 2_000;

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
 * The paths an absolute glob `pattern` expands to now, each segment as bash matches it (empty
 * when none: bash then keeps the word as it is); an obstacle when a segment is a pattern bash
 * reads otherwise (`[...]`, a dot name), a directory cannot be listed, or there are more than
 * `limit` matches.
 */
export function globMatches(
  pattern: string,
  limit = GLOB_MATCH_LIMIT,
): readonly string[] | GlobObstacle {
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
