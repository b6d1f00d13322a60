// Shell commands no call may run, whatever the intent, judged on the parsed command (flags in
// any order or long form, wrappers peeled, payloads re-parsed), never on the raw string: `echo
// "rm -rf /"` deletes nothing. Each rule names the law it protects in its `why`.
import type { ShellCommand, ShellWord } from '../runtime/shell/types.ts';
import { deleteTargets, hasFlag, mayHaveFlag, operands, writeTargets } from './command-effects.ts';
import { isForkBomb } from './fork-bombs.ts';
import { grantedFiles } from './permission-grants.ts';
import { runsForeignCode } from './foreign-code.ts';
import { forbiddenPathRule, isBlockDevice } from './forbidden-paths.ts';
import { wipesCriticalTree } from './mass-delete.ts';
import { spellLongOptions } from './read-only/long-options.ts';
import { credentialInFile } from './stored-credentials.ts';
import { PRIVATE_KEY_BLOCK } from './secret-tokens.ts';
import { dataFileOf, inlineUploadWords, networkFedWords, uploadWords } from './network-effects.ts';
import {
  anyPath,
  isCriticalTree,
  literal,
  SCRATCH_ROOTS,
  under,
  WRITE_PROTECTED,
  type ShellView,
} from './shell-view.ts';

export { isCriticalTree, type ShellView } from './shell-view.ts';

/** One dangerous-shell rule: its name (the denial reason says it), why, and the predicate. */
export interface DangerRule {
  readonly name: string;
  readonly why: string;
  matches(command: ShellCommand, view: ShellView): boolean;
}

const DELETE_PROTECTED = [...WRITE_PROTECTED, '/var/log', '/var/lib'];

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

// hdparm's options that write the drive: erase, sectors, firmware, capacity (DCO/HPA).
const HDPARM_WRITES =
  /^--(?:security-erase|security-erase-enhanced|write-sector|trim-sector-ranges|make-bad-sector|fwdownload|dco-restore|dco-setmax)|^-N/;
// nvme subcommands that erase the namespace or its data.
const NVME_WIPES: ReadonlySet<string> = new Set([
  'format',
  'sanitize',
  'write-zeroes',
  'delete-ns',
]);

// parted's words that only print: print (p), and unit with its units (s, %, cyl, chs, compact, kB…TiB).
const PARTED_READS = /^(?:p|print|unit|s|%|cyl|chs|compact|[a-zA-Z]+B)$/;

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
        !operands(args).every((w) => isBlockDevice(w.text) || PARTED_READS.test(w.text))
      );
    case 'badblocks':
      return hasFlag(args, 'wn', []);
    case 'hdparm':
      return args.some((a) => HDPARM_WRITES.test(a.text));
    case 'nvme':
      return NVME_WIPES.has(operands(args)[0]?.text ?? '');
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
// Devices that hold no data of the machine: reading them yields nothing, zeros or noise
// (`openssl s_client … </dev/null` sends nothing).
const DATALESS_DEVICES = ['/dev/null', '/dev/zero', '/dev/full', '/dev/random', '/dev/urandom'];

/**
 * A path whose bytes must not leave the machine: a system tree, a forbidden path, a whole
 * critical tree (the home, /), or anything hidden below the home (dotfiles and dot-dirs hold
 * config, history and tokens: ~/.bashrc, ~/.npmrc, ~/project/.env).
 */
function keptOnMachine(path: string, home: string): boolean {
  if (DATALESS_DEVICES.includes(path)) return false;
  if (isCriticalTree(path, home) || forbiddenPathRule(path) !== null) return true;
  // Judged as the home's before the system trees': a home may live under /var (/var/lib/ada).
  if (path.startsWith(`${home}/`)) return /\/\./.test(path.slice(home.length));
  return under(path, UPLOAD_PROTECTED) && !under(path, SCRATCH_ROOTS);
}

/**
 * A file whose text holds a credential (a key block, a stored shape, a secret token, an env
 * file's API_KEY=…), whatever its name or place: what it holds is what the store holds.
 */
function holdsCredential(path: string, view: ShellView): boolean {
  const text = view.fileText(literal(path));
  if (text === null) return false;
  return PRIVATE_KEY_BLOCK.test(text) || credentialInFile(basename(path), text) !== null;
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Paths a command sends: after the @ or < of curl's data options, the whole word otherwise. */
function uploadedFiles(command: ShellCommand, view: ShellView): string[] {
  const sent = uploadWords(command).flatMap(({ word, atFile }) =>
    view.paths(word).flatMap((v) => {
      if (!atFile) return [v];
      const file = dataFileOf(v);
      return file === null ? [] : view.paths(literal(file));
    }),
  );
  const fed = [...networkFedWords(command, view.parsed.commands), ...inlineUploadWords(command)];
  return [...sent, ...fed.flatMap((w) => view.paths(w))];
}

/** The dangerous-shell rules, checked on every command of the parse. */
export const DANGEROUS_SHELL: readonly DangerRule[] = [
  {
    name: 'recursive delete of / or a home or system tree',
    why: 'Law 1: rm -rf, find -delete, shred or xargs rm over /, ~ (or what holds it) or /usr cannot be undone',
    matches: wipesCriticalTree,
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
    why: 'Law 5: a function that pipes or backgrounds itself, an endless loop of `&`, or a fork loop exhausts the process table',
    matches: isForkBomb,
  },
  {
    name: 'downloaded or decoded code run as a program',
    why: 'Law 4: curl | sh (or curl -O; bash f, | bash /dev/stdin, | xargs sh -c) runs text nobody has read',
    matches: (c, view) => runsForeignCode(c, view),
  },
  {
    name: 'upload of system files',
    why: "Law 2: account data, kernel state, logs and the home's dotfiles have no reason to leave the machine",
    matches: (c, view) =>
      uploadedFiles(c, view).some((p) => keptOnMachine(p, view.home) || holdsCredential(p, view)),
  },
  {
    name: 'permission change of / or (recursive) of a system tree',
    why: 'Law 5: chmod -R or chown -R over / breaks sudo, ssh and every service',
    matches: (c, view) =>
      (c.binary === 'chmod' || c.binary === 'chown' || c.binary === 'chgrp') &&
      anyPath(operands(c.args), view, (p) =>
        mayHaveFlag(c.args, 'R', ['--recursive'], view.parsed.variables)
          ? isCriticalTree(p, view.home)
          : p === '/',
      ),
  },
  {
    name: 'permission grant on a system file',
    why: 'Law 5: a setuid bit on /bin/bash, a world-writable /etc/shadow, a user owning /etc/sudoers or a capability on /usr/bin/python3 hands root to anyone',
    matches: (c, view) =>
      anyPath(grantedFiles(c), view, (p) => p === '/' || under(p, WRITE_PROTECTED)),
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
  // Read as the program reads it: `rm --rec ~` is `rm --recursive ~` (getopt_long's prefixes).
  // The whole parse is spelled at once: rules find a command's feeders and payloads by its place.
  const commands = view.parsed.commands.map((command) =>
    command.binary === null ? command : spellLongOptions(command, command.binary),
  );
  const written = new Map(commands.map((command, i) => [command, view.parsed.commands[i]]));
  const spelled: ShellView = {
    ...view,
    parsed: { ...view.parsed, commands },
    workingDirs: (command) => view.workingDirs(written.get(command) ?? command),
  };
  for (const command of commands) {
    for (const rule of DANGEROUS_SHELL) if (rule.matches(command, spelled)) return rule;
  }
  return null;
}
