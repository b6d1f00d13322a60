// The one-occurrence rule shared by fs_edit and fs_multi_edit: an edit whose old text is
// missing or ambiguous is refused, because guessing which occurrence was meant loses data.
import { InvalidArguments } from '../runtime/errors.ts';

/** Count non-overlapping occurrences of `needle` in `text`. */
function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    count += 1;
  }
  return count;
}

/** `text` with the single occurrence of `oldText` replaced; InvalidArguments when it occurs 0 or 2+ times. */
export function replaceOnce(text: string, oldText: string, newText: string, label: string): string {
  if (oldText === '') throw new InvalidArguments(`${label}: old_text is empty`);
  const count = countOccurrences(text, oldText);
  if (count !== 1) {
    const why = count === 0 ? 'was not found' : `occurs ${String(count)} times`;
    throw new InvalidArguments(
      `${label}: old_text ${why}; it must match exactly once (add surrounding lines to make it unique). File left unchanged.`,
    );
  }
  const at = text.indexOf(oldText);
  return text.slice(0, at) + newText + text.slice(at + oldText.length);
}
