// The operator's subcommand_allowlist, applied to EVERY command of a parsed line: each stage
// of a pipeline or list, each substitution, each payload, and each wrapper peeled off on the way.
import type { ParsedShell, ShellCommand, ShellWord } from './types.ts';

/** Why a command line falls outside shell.subcommand_allowlist (the binary name is the operator's data). */
export type AllowlistViolation = { kind: 'command' | 'subcommand'; reason: string };

/** The first argument that is not an option: git's `status`, docker's `ps`. */
function subcommandOf(args: readonly ShellWord[]): ShellWord | undefined {
  return args.find((arg) => !(arg.literal && arg.text.startsWith('-')));
}

function checkName(
  name: string,
  args: readonly ShellWord[],
  allowlist: Record<string, '*' | string[]>,
): AllowlistViolation | null {
  // Model-influenced names: own properties only (never __proto__ or constructor).
  if (!Object.hasOwn(allowlist, name))
    return { kind: 'command', reason: `command not in subcommand_allowlist: ${name}` };
  const allowed = allowlist[name];
  if (allowed === '*' || allowed === undefined) return null;
  const sub = subcommandOf(args);
  if (sub === undefined || !sub.literal || !allowed.includes(sub.text)) {
    return { kind: 'subcommand', reason: `subcommand not in subcommand_allowlist for ${name}` };
  }
  return null;
}

function checkCommand(
  command: ShellCommand,
  parsed: ParsedShell,
  allowlist: Record<string, '*' | string[]>,
): AllowlistViolation | null {
  for (const wrapper of command.wrappers) {
    const violation = checkName(wrapper.name, wrapper.args, allowlist);
    if (violation) return violation;
  }
  // A bare assignment or redirect runs no program; a declaration builtin only sets variables.
  if (command.name === null || command.declaration) return null;
  if (command.binary === null)
    return { kind: 'command', reason: 'command name is not literal (subcommand_allowlist is set)' };
  // Calls of a function defined in the same text: its body's commands are checked themselves.
  if (parsed.functions.has(command.binary) && command.name.text === command.binary) return null;
  return checkName(command.binary, command.args, allowlist);
}

/** First command (of all of them) outside the allowlist, or null when every one is allowed. */
export function allowlistViolation(
  parsed: ParsedShell,
  allowlist: Record<string, '*' | string[]>,
): AllowlistViolation | null {
  if (parsed.errors)
    return { kind: 'command', reason: 'command line does not parse (subcommand_allowlist is set)' };
  for (const command of parsed.commands) {
    const violation = checkCommand(command, parsed, allowlist);
    if (violation) return violation;
  }
  return null;
}
