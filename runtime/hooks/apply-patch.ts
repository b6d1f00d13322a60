// The files a Codex `apply_patch` envelope touches, read from its headers (`*** Add File:`,
// `*** Update File:`, `*** Move to:`, `*** Delete File:`), so the gate judges each as the file
// tool call it is. A text that is not such an envelope touches nothing we can name: null.
// Codex reads a header with blanks around it (its parser trims each hunk's first line, with
// Rust's Unicode White_Space), so a header here is any line that is one once trimmed the same
// way: an indented `*** Delete File:` is a file Codex deletes.

/** One file a patch adds, changes, moves a change to, or deletes; `path` as written. */
export interface PatchedFile {
  readonly change: 'add' | 'update' | 'move-to' | 'delete';
  readonly path: string;
  /** For an added file, the lines it will hold. */
  readonly content: string;
}

const HEADER = /^\*\*\* (Add File|Update File|Move to|Delete File): (.+)$/;
/** Codex's trim: Rust's `str::trim`, every Unicode White_Space character at either end. */
const BLANKS_AROUND = /^\p{White_Space}+|\p{White_Space}+$/gu;
const CHANGES = {
  'Add File': 'add',
  'Update File': 'update',
  'Move to': 'move-to',
  'Delete File': 'delete',
} as const;

/** The files of an apply_patch envelope, in order; null when it is not one or names none. */
export function patchedFiles(patch: string): PatchedFile[] | null {
  const lines = patch.split(/\r?\n/);
  const trim = (line: string): string => line.replace(BLANKS_AROUND, '');
  if (!lines.some((line) => trim(line) === '*** Begin Patch')) return null;
  const files: { change: PatchedFile['change']; path: string; added: string[] }[] = [];
  for (const line of lines) {
    const header = HEADER.exec(trim(line));
    if (header !== null) {
      const [, kind, path] = header;
      if (kind === undefined || path === undefined || trim(path) === '') return null;
      // The path as Codex takes it: the rest of the trimmed line, blanks after the colon kept.
      files.push({ change: CHANGES[kind as keyof typeof CHANGES], path, added: [] });
      continue;
    }
    const last = files.at(-1);
    if (last?.change === 'add' && line.startsWith('+')) last.added.push(line.slice(1));
  }
  if (files.length === 0) return null;
  return files.map(({ change, path, added }) => ({ change, path, content: added.join('\n') }));
}
