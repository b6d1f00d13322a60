// Which command lines look at (or signal) the machine's own processes and sockets. In the
// sandbox's private namespaces `ps`, `ss` and `lsof -i` see only themselves, and `kill` finds
// nothing to signal: "which process holds port 3000?" could not be answered even after a card.
// Such a line runs with the host's process table and sockets in view (executors/sandbox/
// bwrap-args.ts): uncarded only when it does nothing but list them (the read-only catalogue
// has already vetted every option), and after a card when it signals. Pure.
import type { ParsedShell, ShellCommand } from '../runtime/shell/types.ts';
import { TEXT_FILTERS } from './programs.ts';
import { COMMAND_LINE_LISTERS, unreadTextStaysWhole } from './unread-text.ts';

/** Programs that list processes, sockets, network interfaces or what they hold open: nothing else. */
const PROCESS_LISTERS: ReadonlySet<string> = new Set([
  'ip',
  'ps',
  'pgrep',
  'pidof',
  'lsof',
  'ss',
  'netstat',
  'fuser',
]);

/** Programs that signal processes. */
const PROCESS_SIGNALLERS: ReadonlySet<string> = new Set(['kill', 'pkill', 'killall']);

/**
 * True when the command opens nothing through a redirect: bash connects an input redirect from
 * /dev/tcp/HOST/PORT itself, which in a line with the host's network is a way out. Only writes
 * to /dev/null and descriptor copies (2>&1) are left.
 */
export function opensNothing(command: ShellCommand): boolean {
  return command.redirects.every((r) => !r.writes && !r.op.includes('<'));
}

/** True when some command in the line lists or signals the machine's processes or sockets. */
export function needsHostProcesses(shell: ParsedShell): boolean {
  return shell.commands.some(
    (c) => c.binary !== null && (PROCESS_LISTERS.has(c.binary) || PROCESS_SIGNALLERS.has(c.binary)),
  );
}

/** True when the line lists or searches other programs' command lines (`ps`, `pgrep -f`). */
export function listsCommandLines(shell: ParsedShell): boolean {
  return shell.commands.some((c) => c.binary !== null && COMMAND_LINE_LISTERS.has(c.binary));
}

/**
 * True when the line only lists processes or sockets and filters that text: what a line without
 * a card may see of the host (its network namespace included, for ss, netstat and lsof -i). A
 * listing of other programs' command lines (ps, pgrep) holds text the decision cannot see: only
 * filters that keep each line whole may follow it (unread-text.ts), so the output check still
 * cuts a credential.
 */
export function onlyListsHostProcesses(shell: ParsedShell): boolean {
  const lists = (c: ShellCommand): boolean => c.binary !== null && PROCESS_LISTERS.has(c.binary);
  const listsCommandLines = (c: ShellCommand): boolean =>
    c.binary !== null && COMMAND_LINE_LISTERS.has(c.binary);
  return (
    shell.commands.some(lists) &&
    unreadTextStaysWhole(shell, listsCommandLines) &&
    shell.commands.every((c) => (lists(c) || TEXT_FILTERS.has(c.binary ?? '')) && opensNothing(c))
  );
}
