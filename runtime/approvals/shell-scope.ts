// The narrow scope of a shell command for always-allow rules: its binary and subcommand,
// and only when the line is one plain command. Interpreters, wrappers, destructive tools,
// lists, pipelines, substitutions and non-literal words never get a rule.
import { parseShell } from '../shell/parse.ts';
import type { ParsedShell, ShellCommand } from '../shell/types.ts';

export interface ShellScope {
  /** The command word exactly as written (`git`, `/usr/bin/git`, `./git` are three binaries). */
  readonly binary: string;
  readonly subcommand?: string;
}

// Anything that runs code it is handed, or runs another command: a rule would allow everything.
const RUNS_ANYTHING = new Set([
  'bash',
  'sh',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'csh',
  'tcsh',
  'busybox',
  'python',
  'python2',
  'python3',
  'node',
  'deno',
  'bun',
  'perl',
  'ruby',
  'php',
  'lua',
  'tclsh',
  'osascript',
  'awk',
  'gawk',
  'mawk',
  'sed',
  'find',
  'npx',
  'source',
  '.',
  'sudo',
  'doas',
  'su',
  'env',
  'xargs',
  'eval',
  'exec',
  'command',
  'builtin',
  'nohup',
  'nice',
  'timeout',
  'stdbuf',
  'ionice',
  'setsid',
  'chroot',
  'time',
  'watch',
  'nsenter',
  'unshare',
  'ssh',
  'parallel',
]);

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

/** The rule scope of a command line, or null when no rule can be narrow enough. */
export function narrowShellScope(commandLine: string): ShellScope | null {
  const parsed = parse(commandLine);
  const command = parsed === null ? null : plainCommand(parsed);
  if (command === null || command.name === null || command.binary === null) return null;
  if (
    RUNS_ANYTHING.has(command.binary) ||
    DESTRUCTIVE.has(command.binary) ||
    command.binary.startsWith('mkfs')
  ) {
    return null;
  }
  const first = command.args[0]?.text;
  if (first !== undefined && SUBCOMMAND.test(first))
    return { binary: command.name.text, subcommand: first };
  // No subcommand: a binary-wide rule only from a call with nothing but flags (`df -h`), never
  // from `git -C dir push`, whose first word hides what it does.
  return command.args.every((word) => word.text.startsWith('-'))
    ? { binary: command.name.text }
    : null;
}

/** Whether a rule's scope covers a command line: the same scope (no subcommand = flags only). */
export function shellScopeCovers(rule: ShellScope, commandLine: string): boolean {
  const scope = narrowShellScope(commandLine);
  return scope !== null && scope.binary === rule.binary && scope.subcommand === rule.subcommand;
}

/** A short "what runs" for a card: wrappers, binary and subcommand of the first command. */
export function shellHeadline(commandLine: string): string {
  const parsed = parse(commandLine);
  const top = parsed?.commands.filter((c) => c.origin === 'top' && c.name !== null) ?? [];
  const [first] = top;
  if (first === undefined || first.name === null)
    return commandLine.trim().split(/\s+/).slice(0, 2).join(' ');
  const sub = first.args[0]?.text;
  const words = [...first.wrappers.map((w) => w.name), first.name.text];
  // A long word is an argument, not a subcommand; it must not push the count off the card.
  if (sub !== undefined && SUBCOMMAND.test(sub) && sub.length <= 24) words.push(sub);
  const more = top.length - 1;
  return more > 0
    ? `${words.join(' ')} (+${String(more)} more command${more > 1 ? 's' : ''})`
    : words.join(' ');
}
