// Long text on a card: whole when short, else its head AND its tail (what runs last is often
// what matters: the `curl … | sh` at the end of a script), and diffs of what an edit changes.
import { structuredPatch } from 'diff';

/** `text` on one line (runs of white space as one space), cut to `max` with an ellipsis. */
export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** One line of at most `max` characters: its head and tail around "…" when longer. */
export function middleCut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.ceil((max - 1) / 2);
  return `${text.slice(0, head)}…${text.slice(text.length - (max - 1 - head))}`;
}

function omitted(count: number, unit: string): string {
  return `… (${String(count)} ${unit}${count === 1 ? '' : 's'} not shown) …`;
}

/** `text` whole up to `max` characters, else whole lines from its head and its tail. */
export function headAndTail(text: string, max: number): string {
  if (text.length <= max) return text;
  const lines = text.split('\n');
  const half = Math.floor(max / 2);
  const head: string[] = [];
  const tail: string[] = [];
  let used = 0;
  for (const line of lines) {
    if (used + line.length + 1 > half) break;
    head.push(line);
    used += line.length + 1;
  }
  used = 0;
  for (let i = lines.length - 1; i >= head.length; i -= 1) {
    const line = lines[i] as string;
    if (used + line.length + 1 > half) break;
    tail.unshift(line);
    used += line.length + 1;
  }
  const hidden = lines.length - head.length - tail.length;
  if (head.length === 0 || tail.length === 0) {
    // A line too long to show whole: cut by characters, the end still shown.
    return `${text.slice(0, half)} ${omitted(text.length - 2 * half, 'character')} ${text.slice(-half)}`;
  }
  return [...head, omitted(hidden, 'line'), ...tail].join('\n');
}

/** Sizes for people: 512 B, 2.1 kB, 3.4 MB. */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${String(bytes)} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** Bound on diff work: past this many edits the card shows the new text instead. */
const MAX_EDIT_LENGTH = 5000;

/** A unified diff of the lines that change (2 lines of context), or null when too costly. */
export function lineDiff(before: string, after: string): string | null {
  const patch = structuredPatch('before', 'after', before, after, undefined, undefined, {
    context: 2,
    maxEditLength: MAX_EDIT_LENGTH,
  });
  if (patch === undefined) return null;
  return patch.hunks
    .flatMap((hunk) => [
      `@@ -${String(hunk.oldStart)},${String(hunk.oldLines)} +${String(hunk.newStart)},${String(hunk.newLines)} @@`,
      ...hunk.lines,
    ])
    .filter((line) => line !== '\\ No newline at end of file')
    .join('\n');
}
