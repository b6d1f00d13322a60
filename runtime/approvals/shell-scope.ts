// The narrow scope of a shell command for always-allow rules: its command word and exact
// arguments, and only when the line is one plain command. Interpreters, wrappers, destructive tools,
// lists, pipelines, substitutions and non-literal words never get a rule.
import { runsOtherCode } from '../../constitution/programs.ts';
import { parseShell } from '../shell/parse.ts';
import type { ParsedShell, ShellCommand } from '../shell/types.ts';

export interface ShellScope {
  /** The command word exactly as written (`git`, `/usr/bin/git`, `./git` are three binaries). */
  readonly binary: string;
  /** Rules saved before exact scopes: this subcommand with any arguments. */
  readonly subcommand?: string;
  /** Exactly these argument words (the narrowest rule that covers one call). */
  readonly args?: readonly string[];
}

// Besides the shells, interpreters and launchers of constitution/programs.ts, these run code
// they are handed (awk, sed and find programs, a sourced file): a rule would allow everything.
const RUNS_HANDED_CODE = new Set(['awk', 'gawk', 'mawk', 'sed', 'find', 'source', '.', 'eval']);

// Tools whose words are all targets: "rm" + any arguments is not narrow, whatever comes first.
const DESTRUCTIVE = new Set([
  'rm',
  'rmdir',
  'unlink',
  'shred',
  'dd',
  'wipefs',
  'fdisk',
  'sgdisk',
  'parted',
  'mv',
  'cp',
  'ln',
  'install',
  'chmod',
  'chown',
  'chgrp',
  'truncate',
  'kill',
  'pkill',
  'killall',
  'tee',
  'rsync',
  'crontab',
  'reboot',
  'shutdown',
  'halt',
  'poweroff',
  'curl',
  'wget',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'scp',
  'sftp',
]);

/** A word that names a subcommand (`status`, `run`, `install`), not a flag, path or URL. */
const SUBCOMMAND = /^[A-Za-z][A-Za-z0-9._:-]*$/;

function parse(command: string): ParsedShell | null {
  try {
    return parseShell(command);
  } catch {
    // Parser not initialised or failed: no scope, so no rule (fail closed).
    return null;
  }
}

function plainCommand(parsed: ParsedShell): ShellCommand | null {
  if (parsed.errors || parsed.hasSubstitution || parsed.commands.length !== 1) return null;
  const [command] = parsed.commands;
  if (command === undefined || command.name === null || command.binary === null) return null;
  const plain =
    command.origin === 'top' &&
    command.depth === 0 &&
    command.wrappers.length === 0 &&
    command.assignments.length === 0 &&
    !command.background &&
    !command.declaration &&
    command.fn === null &&
    command.stdinText === null &&
    command.name.literal &&
    command.args.every((word) => word.literal && !word.glob) &&
    command.redirects.every((redirect) => !redirect.writes);
  return plain ? command : null;
}

/** A command line that a rule may name: one plain command, none of the programs above. */
function ruleCommand(commandLine: string): ShellCommand | null {
  const parsed = parse(commandLine);
  const command = parsed === null ? null : plainCommand(parsed);
  if (command === null || command.binary === null) return null;
  const { binary } = command;
  return runsOtherCode(binary) ||
    RUNS_HANDED_CODE.has(binary) ||
    DESTRUCTIVE.has(binary) ||
    binary.startsWith('mkfs')
    ? null
    : command;
}

/**
 * The narrowest rule scope of a command line: its command word and every argument, exactly as
 * parsed (`git push --force origin main` covers that and nothing else); null when no rule can
 * be safe (interpreters, wrappers, destructive tools, lists, substitutions, globs...).
 */
export function exactShellScope(commandLine: string): ShellScope | null {
  const command = ruleCommand(commandLine);
  if (command === null || command.name === null) return null;
  return { binary: command.name.text, args: command.args.map((word) => word.text) };
}

/** The binary + subcommand scope that rules saved before exact scopes used. */
function legacyScope(command: ShellCommand): ShellScope | null {
  if (command.name === null) return null;
  const first = command.args[0]?.text;
  if (first !== undefined && SUBCOMMAND.test(first))
    return { binary: command.name.text, subcommand: first };
  return command.args.every((word) => word.text.startsWith('-'))
    ? { binary: command.name.text }
    : null;
}

/**
 * Whether a rule's scope covers a command line: the same words for an exact scope; for a rule
 * saved with a subcommand, that binary and subcommand (none = flags only).
 */
export function shellScopeCovers(rule: ShellScope, commandLine: string): boolean {
  const command = ruleCommand(commandLine);
  if (command === null || command.name === null || command.name.text !== rule.binary) return false;
  if (rule.args !== undefined) {
    const words = command.args.map((word) => word.text);
    return words.length === rule.args.length && words.every((word, i) => word === rule.args?.[i]);
  }
  const scope = legacyScope(command);
  return scope !== null && scope.subcommand === rule.subcommand;
}
