// How bash expands one glob segment against the names in a directory, for the globs the tiers
// judge by what they expand to: `*` and `?` only, never a dot name (with dotglob off, as in the
// sandbox, a pattern not starting with `.` matches none). Pure.

/** The segment as a RegExp over one name; null for `[...]` or a segment starting with `.`. */
export function namePattern(segment: string): RegExp | null {
  if (segment.startsWith('.') || /[[\]]/.test(segment)) return null;
  const body = [...segment]
    .map((c) => (c === '*' ? '[^/]*' : c === '?' ? '[^/]' : c.replace(/[\\^$.+()|{}]/g, '\\$&')))
    .join('');
  return new RegExp(`^(?!\\.)${body}$`, 'u');
}

/** True when the segment holds a character bash would expand. */
export function isGlobSegment(segment: string): boolean {
  return /[*?[]/.test(segment);
}
