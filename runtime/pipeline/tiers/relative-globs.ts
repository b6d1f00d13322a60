// `du -sh *`, `wc -l *.md`, `ls *.jpg`: a glob that starts with a wildcard expands to names of
// the working directory, and a name there starting with `-` or `+` would become an option (a
// file called `-rf`), so the catalogue refuses such a word from its text alone. When no name in
// the working directory starts with either, the word is judged as `./GLOB`: the same files, by a
// spelling that can never be an option. Otherwise, or where the directory cannot be read, the
// word stays as written (and the line asks). The executor runs the line unchanged.
import type { ParsedShell, ShellCommand, ShellWord } from '../../shell/types.ts';

const LEADING_WILDCARD = /^[*?[]/;

/** A text-only glob whose first character is a wildcard. */
function startsWithWildcard(word: ShellWord): boolean {
  return (
    word.glob &&
    word.parts.every((part) => part.kind === 'text') &&
    LEADING_WILDCARD.test(word.text)
  );
}

function anchored(word: ShellWord): ShellWord {
  if (!startsWithWildcard(word)) return word;
  const text = `./${word.text}`;
  return { ...word, text, parts: [{ kind: 'text', text }] };
}

function withAnchoredArgs(command: ShellCommand): ShellCommand {
  return { ...command, args: command.args.map(anchored) };
}

/**
 * The line with each argument glob that starts with a wildcard judged as `./GLOB`, when no name
 * in `cwd` could turn into an option; the line as given otherwise.
 */
export function anchorRelativeGlobs(
  shell: ParsedShell,
  cwd: string,
  namesIn: (dir: string) => readonly string[] | null,
): ParsedShell {
  if (!shell.commands.some((command) => command.args.some(startsWithWildcard))) return shell;
  const names = namesIn(cwd);
  if (names === null || names.some((name) => /^[-+]/.test(name))) return shell;
  return { ...shell, commands: shell.commands.map(withAnchoredArgs) };
}
