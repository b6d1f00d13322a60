// `CMD || true` and `CMD || :` are how models keep a failing check from failing the call: the
// no-op changes only the exit status, so the line is judged as CMD alone (and a leading
// `cd DIR && …` before it folds as in a plain chain). The executor runs the line unchanged.
import { parseShell } from '../../shell/parse.ts';
import type { ParsedShell, ShellCommand } from '../../shell/types.ts';

const TRAILING_NO_OP = /\s*\|\|\s*(?:true|:)\s*$/;

/** A bare `true` or `:` of the main shell: no word, redirect, assignment or wrapper. */
function bareNoOp(command: ShellCommand | undefined): boolean {
  return (
    command !== undefined &&
    (command.binary === 'true' || command.binary === ':') &&
    command.origin === 'top' &&
    command.scope.length === 0 &&
    command.args.length === 0 &&
    command.redirects.length === 0 &&
    command.assignments.length === 0 &&
    command.wrappers.length === 0
  );
}

/** What a command runs, as a comparable string. */
function runs(command: ShellCommand | undefined): string {
  if (command === undefined) return '';
  const { binary, args, redirects, origin, background, depth, scope } = command;
  return JSON.stringify([
    binary,
    args.map((word) => word.text),
    redirects.map((r) => [r.op, r.target?.text]),
    origin,
    background,
    depth,
    scope.length,
  ]);
}

/**
 * The line without its final `|| true` / `|| :`, when the parse of what is left is the same
 * commands but that no-op (so the text cut was exactly that operator and word); else as given.
 */
export function dropTrailingTrue(shell: ParsedShell): ParsedShell {
  const text = shell.source;
  if (shell.errors || !TRAILING_NO_OP.test(text) || !bareNoOp(shell.commands.at(-1))) return shell;
  const rest = parseShell(text.replace(TRAILING_NO_OP, ''));
  const same =
    !rest.errors &&
    rest.commands.length === shell.commands.length - 1 &&
    rest.commands.every((command, at) => runs(command) === runs(shell.commands[at]));
  return same ? rest : shell;
}
