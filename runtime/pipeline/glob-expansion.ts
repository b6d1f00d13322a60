// What a plain glob word expands to when bash runs it, read from the directories it walks
// (symlinks followed, as bash follows them). The pattern's text says nothing of a link among
// its matches (notes/creds.txt -> ~/backup/.aws/credentials): the tiers judge each match.
import { join } from 'node:path';
import { globMatcher } from '../vaglio/guard-text.ts';

const GLOB = /[*?[]/;

/**
 * The paths an absolute glob matches now (empty when none: bash then keeps the word as it
 * is), or null when a directory cannot be read, the pattern cannot be read, or it matches
 * more than `limit` paths.
 */
export function expandGlob(
  pattern: string,
  namesIn: (dir: string) => readonly string[] | null,
  limit = 2000,
): readonly string[] | null {
  let current = ['/'];
  for (const segment of pattern.split('/').filter((s) => s !== '')) {
    if (!GLOB.test(segment)) {
      current = current.map((dir) => join(dir, segment));
      continue;
    }
    // A name matches as bash matches it: a leading dot only by a leading `.`.
    const matches = globMatcher(segment);
    const next: string[] = [];
    for (const dir of current) {
      const names = namesIn(dir);
      if (names === null) continue;
      for (const name of names) if (matches(name)) next.push(join(dir, name));
      if (next.length > limit) return null;
    }
    current = next;
  }
  return current;
}
