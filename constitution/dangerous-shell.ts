// Shell commands no call may run, whatever the intent, judged on the parsed command (flags in
// any order or long form, wrappers peeled, payloads re-parsed), never on the raw string: `echo
// "rm -rf /"` deletes nothing. Each rule names the law it protects in its `why`.
import type { ParsedShell, ShellCommand, ShellWord } from '../runtime/shell/types.ts';
import {
  deleteTargets,
  hasFlag,
  operands,
  producesForeignCode,
  runsStdin,
  scriptRun,
  runsSubstitution,
  uploadWords,
  writeTargets,
} from './command-effects.ts';
import { isBlockDevice } from './forbidden-paths.ts';

/** What a rule sees besides the command: the whole parse, and the possible values of a path word. */
export interface ShellView {
  readonly parsed: ParsedShell;
  readonly home: string;
  /** Normalised values a word can take as a path (variables substituted; unknown ones empty). */
  paths(word: ShellWord): readonly string[];
}

/** One dangerous-shell rule: its name (the denial reason says it), why, and the predicate. */
export interface DangerRule {
  readonly name: string;
  readonly why: string;
  matches(command: ShellCommand, view: ShellView): boolean;
}

// Trees owned by the package manager and the kernel: writing into them changes the system itself.
const WRITE_PROTECTED = [
  '/etc',
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/boot',
  '/sys',
  '/proc',
];
// Trees whose loss (recursive delete, move, chmod -R) leaves no working system.
const SYSTEM_TREES: ReadonlySet<string> = new Set([
  ...WRITE_PROTECTED,
  ...['/var', '/opt', '/srv', '/home', '/root', '/dev', '/snap', '/nix'],
  ...['/System', '/Library', '/Applications', '/Users', '/Volumes', '/private'],
]);
const DELETE_PROTECTED = [...WRITE_PROTECTED, '/var/log', '/var/lib'];
const GLOB = /[*?[]/;

function under(path: string, trees: readonly string[]): boolean {
  return trees.some((tree) => path === tree || path.startsWith(`${tree}/`));
}

function narrowsByName(command: ShellCommand): boolean {
  return command.args.some((a) => /^-(?:i?name|i?path|i?wholename|i?regex)$/.test(a.text));
}

/** `/`, a home, a system tree, or a glob over one of them (`/*`, `~/.*`, `/e*`): never deleted whole. */
export function isCriticalTree(path: string, home: string): boolean {
  if (path === '') return false;
  // ~user is another account's home.
  if (/^~[^/]*\/?$/.test(path)) return true;
  let p = path;
  while (/\/(?:\.?\*|\*\.\*)$/.test(p)) p = p.slice(0, p.lastIndexOf('/')) || '/';
  if (p === '/' || p === home || SYSTEM_TREES.has(p)) return true;
  // A glob in the first segment can match anything at the root.
  if (GLOB.test(p.split('/')[1] ?? '')) return p.startsWith('/');
  return /^\/(?:home|Users)\/[^/]+$/.test(p);
}

function anyPath(
  words: readonly ShellWord[],
  view: ShellView,
  test: (path: string) => boolean,
): boolean {
  return words.some((word) => view.paths(word).some(test));
}

const READ_ONLY_SGDISK = [
  '-p',
  '--print',
  '-v',
  '--verify',
  '-i',
  '--info',
  '-O',
  '--print-mbr',
  '-L',
  '--list-types',
  '-h',
  '--help',
  '-V',
  '--version',
  '-D',
  '--display-alignment',
  '-P',
  '--pretend',
];

/** A disk tool that rewrites the device it is given. */
function wipesDevice(command: ShellCommand, view: ShellView): boolean {
  const args = command.args;
  const onDevice = anyPath(operands(args), view, isBlockDevice);
  if (!onDevice) return false;
  switch (command.binary) {
    case 'shred':
    case 'blkdiscard':
    case 'cfdisk':
    case 'mkswap':
      return true;
    case 'wipefs':
      return hasFlag(args, 'ao', ['--all', '--offset']) && !hasFlag(args, 'n', ['--no-act']);
    case 'fdisk':
    case 'sfdisk':
      return !hasFlag(args, 'ldsV', ['--list', '--dump', '--show-size', '--version', '--help']);
    case 'sgdisk':
      return args.some(
        (a) =>
          a.literal &&
          a.text.startsWith('-') &&
          !READ_ONLY_SGDISK.includes(a.text.split('=')[0] as string),
      );
    case 'parted':
      return (
        !hasFlag(args, 'l', ['--list']) &&
        !operands(args).every(
          (w) => isBlockDevice(w.text) || /^(?:p|print|unit|[a-zA-Z]+B)$/.test(w.text),
        )
      );
    case 'badblocks':
      return hasFlag(args, 'wn', []);
    default:
      return false;
  }
}

function killPids(args: readonly ShellWord[]): ShellWord[] {
  let i = 0;
  const first = args[0];
  if (first?.literal && first.text.startsWith('-') && first.text !== '--')
    i = first.text === '-s' || first.text === '-n' ? 2 : 1;
  if (args[i]?.text === '--') i += 1;
  return args.slice(i);
}

// System trees whose files have no business leaving the machine (account data, kernel state, logs).
const UPLOAD_PROTECTED = ['/etc', '/proc', '/sys', '/usr', '/var', '/boot', '/root', '/dev'];

/** Paths a command uploads: after the @ of curl's data options, or the whole word for -T. */
function uploadedFiles(command: ShellCommand, view: ShellView): string[] {
  return uploadWords(command).flatMap(({ word, atFile }) =>
    view.paths(word).flatMap((v) => {
      if (!atFile) return [v];
      return v.includes('@') ? [v.slice(v.indexOf('@') + 1).split(';')[0] as string] : [];
    }),
  );
}

/** A command that itself fetches or decodes, or whose substitutions do (`echo "$(curl x)"`). */
function feedsForeignCode(command: ShellCommand, commands: readonly ShellCommand[]): boolean {
  if (producesForeignCode(command)) return true;
  const index = commands.indexOf(command);
  return commands.some(
    (o) => o.parent === index && o.origin !== 'payload' && producesForeignCode(o),
  );
}

/** curl | sh, bash <(curl), sh -c "$(curl)", and curl -o f followed by bash f. */
function runsForeignCode(c: ShellCommand, view: ShellView): boolean {
  const commands = view.parsed.commands;
  if (runsStdin(c) && c.pipeline.stage > 0) {
    const earlier = commands.filter(
      (o) => o.pipeline.id === c.pipeline.id && o.pipeline.stage < c.pipeline.stage,
    );
    if (earlier.some((o) => feedsForeignCode(o, commands))) return true;
  }
  if (
    producesForeignCode(c) &&
    c.parent !== null &&
    (c.origin === 'substitution' || c.origin === 'process-substitution')
  ) {
    const parent = commands[c.parent];
    if (parent !== undefined && runsSubstitution(parent, c.origin)) return true;
  }
  const script = scriptRun(c);
  if (script === null) return false;
  const downloaded = new Set(
    commands
      .filter((o) => producesForeignCode(o))
      .flatMap((o) => writeTargets(o).flatMap((w) => view.paths(w))),
  );
  return view.paths(script).some((p) => downloaded.has(p));
}

/** The dangerous-shell rules, checked on every command of the parse. */
export const DANGEROUS_SHELL: readonly DangerRule[] = [
  {
    name: 'recursive delete of / or a home or system tree',
    why: 'Law 1: rm -rf of /, ~ or /usr cannot be undone',
    matches: (c, view) => {
      const isCritical = (p: string): boolean => isCriticalTree(p, view.home);
      if (c.binary === 'rm' && hasFlag(c.args, 'rR', ['--recursive', '--no-preserve-root'])) {
        return anyPath(operands(c.args), view, isCritical);
      }
      // find -name/-path narrows the delete to matching files; without one it takes the tree.
      if (c.binary === 'find')
        return !narrowsByName(c) && anyPath(deleteTargets(c), view, isCritical);
      if (c.binary === 'mv') return anyPath(operands(c.args).slice(0, -1), view, isCritical);
      // rsync --delete onto / makes it a copy of the (often empty) source.
      if (c.binary === 'rsync' && c.args.some((a) => a.text.startsWith('--delete'))) {
        return anyPath(operands(c.args).slice(-1), view, isCritical);
      }
      return false;
    },
  },
  {
    name: 'delete of system files',
    why: 'Law 1: files under /etc, /usr, /boot or /var/log belong to the system and have no trash',
    matches: (c, view) =>
      c.binary !== 'find' && anyPath(deleteTargets(c), view, (p) => under(p, DELETE_PROTECTED)),
  },
  {
    name: 'write into a system tree',
    why: 'Law 5: writing /etc, /usr or /boot changes the system itself (persistence, broken boots)',
    matches: (c, view) =>
      anyPath(writeTargets(c), view, (p) => p === '/' || under(p, WRITE_PROTECTED)),
  },
  {
    name: 'filesystem creation',
    why: 'Law 1: mkfs erases whatever the target held',
    matches: (c, view) =>
      c.binary !== null &&
      /^(?:mkfs(?:\..+)?|mke2fs|mkdosfs|mkntfs|mkexfatfs)$/.test(c.binary) &&
      operands(c.args).some((w) => !w.literal || view.paths(w).some(isBlockDevice)),
  },
  {
    name: 'write onto a block device',
    why: 'Law 1: dd, shred, wipefs or a partitioner on /dev/sda destroys the disk',
    matches: (c, view) => anyPath(writeTargets(c), view, isBlockDevice) || wipesDevice(c, view),
  },
  {
    name: 'fork bomb',
    why: 'Law 5: a function that pipes or backgrounds itself exhausts the process table',
    matches: (c) => c.fn !== null && c.binary === c.fn && (c.pipeline.length > 1 || c.background),
  },
  {
    name: 'downloaded or decoded code run as a program',
    why: 'Law 4: curl | sh (or curl -o f; bash f) runs text nobody has read',
    matches: (c, view) => runsForeignCode(c, view),
  },
  {
    name: 'upload of system files',
    why: 'Law 2: account data, kernel state and logs have no reason to leave the machine',
    matches: (c, view) => uploadedFiles(c, view).some((p) => under(p, UPLOAD_PROTECTED)),
  },
  {
    name: 'permission change of / or (recursive) of a system tree',
    why: 'Law 5: chmod -R or chown -R over / breaks sudo, ssh and every service',
    matches: (c, view) =>
      (c.binary === 'chmod' || c.binary === 'chown' || c.binary === 'chgrp') &&
      anyPath(operands(c.args), view, (p) =>
        hasFlag(c.args, 'R', ['--recursive']) ? isCriticalTree(p, view.home) : p === '/',
      ),
  },
  {
    name: 'kill of init or of every process',
    why: 'Law 5: signalling pid 1 or -1 takes the whole machine down',
    matches: (c) =>
      c.binary === 'killall5' ||
      (c.binary === 'kill' &&
        killPids(c.args).some((w) => w.literal && (w.text === '1' || w.text === '-1'))),
  },
  {
    name: 'crontab removal',
    why: 'Law 1: crontab -r deletes every scheduled job with no copy and no prompt',
    matches: (c) => c.binary === 'crontab' && hasFlag(c.args, 'r', []) && !hasFlag(c.args, 'i', []),
  },
];

/** The first dangerous-shell rule any command of the parse breaks, or null. */
export function dangerousShellRule(view: ShellView): DangerRule | null {
  for (const command of view.parsed.commands) {
    for (const rule of DANGEROUS_SHELL) if (rule.matches(command, view)) return rule;
  }
  return null;
}
