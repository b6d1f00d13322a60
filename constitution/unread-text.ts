// Text the decision never read: what a program prints of the machine's own state (its logs,
// other programs' command lines) rather than of a file the decision could open first. A
// credential logged by a service (`Authorization: Bearer …` in the journal) or passed on a
// command line (`psql postgresql://app:PASS@db`) reaches the model only through the output
// check, which cuts it by its shape, line by line. So such text may pass only through filters
// that keep each line whole: `rev`, `fold`, `od`, `tr`, `cut`, grep's `-o` or head's `-c` would
// print it in a form no shape matches. One rule for every such source. Pure.
import type { ParsedShell, ShellCommand } from '../runtime/shell/types.ts';

/** Programs that print the system's logs, which a decision cannot read before the line runs. */
export const LOG_READERS: ReadonlySet<string> = new Set(['journalctl', 'dmesg']);

/**
 * Programs that print other programs' command lines: text the decision never read only while the
 * host's processes are in view (constitution/process-use.ts); in the sandbox's own process
 * namespace they see only themselves.
 */
export const COMMAND_LINE_LISTERS: ReadonlySet<string> = new Set(['ps', 'pgrep']);

/**
 * Filters that print each line they keep whole (or only count lines), and the options with which
 * they would not: grep's `-o` and its colours (escape codes around a match) and head's or tail's
 * `-c` print pieces of a line.
 */
const GREP_PIECES = /^(?:--only-matching$|--colou?r(?!=never$))|^-[A-Za-z]*o/;
const BYTE_PIECES = /^(?:--bytes)|^-[A-Za-z]*c/;
const WHOLE_LINE_FILTERS: ReadonlyMap<string, RegExp | null> = new Map([
  ['grep', GREP_PIECES],
  ['egrep', GREP_PIECES],
  ['fgrep', GREP_PIECES],
  ['head', BYTE_PIECES],
  ['tail', BYTE_PIECES],
  ['sort', null],
  ['uniq', null],
  ['wc', null],
  ['nl', null],
]);

/** True when the command is a filter that prints each line it keeps whole. */
export function keepsLinesWhole(command: ShellCommand): boolean {
  const pieces = command.binary === null ? undefined : WHOLE_LINE_FILTERS.get(command.binary);
  return (
    pieces !== undefined && (pieces === null || !command.args.some((w) => pieces.test(w.text)))
  );
}

/**
 * True when the line either runs no source of unread text (`isSource`) or runs nothing but such
 * sources and filters that keep each line whole: no other command, in a pipe, a substitution or
 * a later step, could see the text and print it in another form.
 */
export function unreadTextStaysWhole(
  shell: ParsedShell,
  isSource: (command: ShellCommand) => boolean,
): boolean {
  if (!shell.commands.some(isSource)) return true;
  return shell.commands.every((c) => isSource(c) || keepsLinesWhole(c));
}

/** A program that prints the system's logs. */
export function readsLogs(command: ShellCommand): boolean {
  return command.binary !== null && LOG_READERS.has(command.binary);
}

// ps options that choose processes or print no command line: flags, and those whose value is
// the next word (or the rest of the cluster). `-o`/`--format` print the fields they name.
const PS_FLAGS = new Set([...'AaedNHhlwyTr']);
const PS_VALUED = new Set([...'pCuUgGtsq']);
const PS_LONG =
  /^--(?:pid|ppid|user|group|sid|tty|sort|cols|columns|width|rows|lines|no-headers|headers)(?:=|$)/;
const COMMAND_LINE_FIELDS = /(?:^|[,\s])(?:args|cmd|command|cmdline)(?:[:=,\s]|$)/;

/**
 * True when this ps prints a command line (`ps aux`, `ps -ef`, `-o args`): any BSD word, `-f`,
 * `-F`, `-O` or an option not known here counts, as does a format field that holds one.
 */
function psPrintsCommandLines(words: readonly string[]): boolean {
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] as string;
    if (word.startsWith('--')) {
      const format = /^--format(?:=(.*))?$/.exec(word);
      if (format !== null) {
        const fields = format[1] ?? words[(i += 1)];
        if (fields === undefined || COMMAND_LINE_FIELDS.test(fields)) return true;
      } else if (!PS_LONG.test(word)) return true;
      else if (!word.includes('=') && !/^--(?:no-)?headers$/.test(word)) i += 1;
      continue;
    }
    if (!word.startsWith('-') || word === '-') return true;
    for (let at = 1; at < word.length; at += 1) {
      const letter = word[at] as string;
      const value = word.slice(at + 1);
      if (letter === 'o') {
        const fields = value !== '' ? value : words[(i += 1)];
        if (fields === undefined || COMMAND_LINE_FIELDS.test(fields)) return true;
        break;
      }
      if (PS_VALUED.has(letter)) {
        if (value === '') i += 1;
        break;
      }
      if (!PS_FLAGS.has(letter)) return true;
    }
  }
  return false;
}

/** True when this pgrep prints full command lines (`-a`, `--list-full`). */
function pgrepPrintsCommandLines(words: readonly string[]): boolean {
  return words.some((word) => word === '--list-full' || /^-[A-Za-z]*a/.test(word));
}

/**
 * True when the command prints text no decision read as it stands: the system's logs, or other
 * programs' command lines. For an agent that runs it on the host with no output check (the hook),
 * that text is shown raw.
 */
export function printsUnreadText(command: ShellCommand): boolean {
  const words = command.args.map((word) => word.text);
  if (readsLogs(command)) return true;
  if (command.binary === 'ps') return psPrintsCommandLines(words);
  if (command.binary === 'pgrep') return pgrepPrintsCommandLines(words);
  return false;
}
