// Which hosts a command line reaches, read off its parse: the approval card says "Needs the
// network: github.com", and the sandbox gives an approved call the network it needs. Pure.
import type { ParsedShell, ShellCommand, ShellWord } from '../runtime/shell/types.ts';
import { packageNeed } from './network-packages.ts';
import {
  gitRemoteHost,
  joinNeeds,
  COPY_OPTIONS,
  operandWords,
  scpHost,
  sshHost,
  unique,
  UNKNOWN,
  urlHost,
  urlNeed,
  valuesOf,
  VERSION_WORDS,
  type Need,
  type OptionSpec,
} from './network-words.ts';

/**
 * What a command line needs from the network, as far as its parse can tell.
 * - `needed: false`: no command in the line is one this module knows to use the network.
 *   Not a proof of silence: `python3 script.py` may connect anywhere and reads as false.
 * - `needed: true, hosts: [...]`: every networked command names its hosts (lower case, no
 *   port, in order of appearance, without repeats).
 * - `needed: true, hosts: null`: at least one networked command reaches hosts the text does
 *   not name (a git remote by name, a package mirror, a variable URL, a proxy).
 */
export type NetworkUse =
  { readonly needed: false } | { readonly needed: true; readonly hosts: readonly string[] | null };

const CURL: OptionSpec = {
  short: 'oHdXuAebcFTwxmKErCUyYztQP',
  long: [
    '--output',
    '--header',
    '--data',
    '--data-raw',
    '--data-binary',
    '--data-urlencode',
    '--json',
    '--request',
    '--user',
    '--user-agent',
    '--referer',
    '--cookie',
    '--cookie-jar',
    '--form',
    '--upload-file',
    '--write-out',
    '--max-time',
    '--connect-timeout',
    '--cert',
    '--cacert',
    '--key',
    '--range',
    '--retry',
    '--retry-delay',
    '--retry-max-time',
    '--limit-rate',
    '--output-dir',
    '--oauth2-bearer',
    '--max-filesize',
    '--url',
  ],
};
// Options that send the request somewhere other than the URL's host.
const CURL_ELSEWHERE = ['--proxy', '-x', '--resolve', '--connect-to', '--config', '-K', '--socks5'];

const WGET: OptionSpec = {
  short: 'OoaPUetTwQlARDXI',
  long: [
    '--output-document',
    '--output-file',
    '--append-output',
    '--directory-prefix',
    '--user-agent',
    '--header',
    '--post-data',
    '--post-file',
    '--tries',
    '--timeout',
    '--wait',
    '--user',
    '--password',
    '--execute',
    '--referer',
    '--level',
    '--method',
    '--body-data',
  ],
};

const SSH: OptionSpec = { short: 'bcDEeFIiJLlmOoPpQRSWwB', long: [] };
const PING: OptionSpec = { short: 'ciWwstImpqfMQ', long: [] };
const NC: OptionSpec = { short: 'psiwqxXeIOT', long: [] };

function curlLike(command: ShellCommand, spec: OptionSpec): Need {
  const { args } = command;
  if (args.some((word) => CURL_ELSEWHERE.includes(word.text.split('=')[0] as string))) {
    return UNKNOWN;
  }
  if (args.some((word) => ['-i', '--input-file'].includes(word.text) && spec === WGET)) {
    return UNKNOWN;
  }
  const urls = [...operandWords(args, spec), ...valuesOf(args, null, ['--url'])];
  return urlNeed(urls, true);
}

const GIT_GLOBAL: OptionSpec = { short: 'Cc', long: ['--git-dir', '--work-tree', '--namespace'] };
const GIT_LONG_VALUED = [
  '--branch',
  '--origin',
  '--depth',
  '--reference',
  '--template',
  '--jobs',
  '--filter',
  '--separate-git-dir',
  '--shallow-since',
  '--upload-pack',
  '--receive-pack',
  '--repo',
  '--push-option',
  '--config',
];
// clone: -b branch, -o origin, -j jobs, -u upload-pack, -c config; push: -o push-option (-u
// there is --set-upstream, a flag); fetch and pull: -j jobs.
const GIT_CLONE_VALUED: OptionSpec = { short: 'bojuc', long: GIT_LONG_VALUED };
const GIT_REMOTE_VALUED: OptionSpec = { short: 'oj', long: GIT_LONG_VALUED };

/**
 * The host of a git remote by name, read from the repository's own configuration by the
 * caller (null name: the default remote); null when it cannot tell. Without one, a named
 * remote's hosts are unknown.
 */
export type RemoteHost = (name: string | null) => string | null;

function gitRemoteNeed(operand: ShellWord | undefined, remote?: RemoteHost): Need {
  if (operand === undefined) return hostNeed(remote?.(null) ?? null);
  if (!operand.literal) return UNKNOWN;
  const host = gitRemoteHost(operand.text);
  if (host === 'local') return null;
  return host === 'named' ? hostNeed(remote?.(operand.text) ?? null) : { hosts: [host] };
}

function hostNeed(host: string | null): Need {
  return host === null ? UNKNOWN : { hosts: [host] };
}

/** git: `remote` resolves named remotes, and only for a git that runs where the caller looked. */
function gitNeed(command: ShellCommand, remote?: RemoteHost): Need {
  const words = operandWords(command.args, GIT_GLOBAL);
  const at = words[0] === undefined ? -1 : command.args.indexOf(words[0]);
  const sub = words[0]?.text;
  const rest = command.args.slice(at + 1);
  const here = at === 0 ? remote : undefined;
  const operands = operandWords(rest, sub === 'clone' ? GIT_CLONE_VALUED : GIT_REMOTE_VALUED);
  switch (sub) {
    case 'clone':
      return gitRemoteNeed(operands[0]);
    case 'fetch':
    case 'pull':
    case 'push':
    case 'ls-remote':
      if (rest.some((w) => w.text === '--all' || w.text === '--multiple')) return UNKNOWN;
      return gitRemoteNeed(operands[0], here);
    case 'remote':
      return ['update', 'prune', 'show', 'set-head'].includes(operands[0]?.text ?? '') &&
        !rest.some((w) => w.text === '-n')
        ? UNKNOWN
        : null;
    case 'submodule':
      return operands[0]?.text === 'add'
        ? gitRemoteNeed(operands[1])
        : operands[0]?.text === 'update' || operands[0]?.text === 'sync'
          ? UNKNOWN
          : null;
    case 'send-email':
    case 'lfs':
    case 'archive':
      return sub !== 'archive' || rest.some((w) => w.text.startsWith('--remote')) ? UNKNOWN : null;
    default:
      return null;
  }
}

function sshNeed(command: ShellCommand): Need {
  const { args } = command;
  const proxied = valuesOf(args, '-o', []).some((w) => /^proxy(?:command|jump)/i.test(w.text));
  if (proxied) return UNKNOWN;
  const [destination] = operandWords(args, SSH);
  const jumps = valuesOf(args, '-J', []).flatMap((w) => w.text.split(','));
  const names = [...jumps, ...(destination?.literal === true ? [destination.text] : [])];
  if (destination === undefined || !destination.literal) return UNKNOWN;
  const hosts = names.map(sshHost);
  return hosts.every((h): h is string => h !== null) ? { hosts: unique(hosts) } : UNKNOWN;
}

/** scp, sftp and rsync: the hosts of `host:path`, `rsync://` and `host::module` operands. */
function copyNeed(command: ShellCommand): Need {
  const operands = operandWords(
    command.args,
    command.binary === 'rsync' ? COPY_OPTIONS.rsync : SSH,
  );
  const hosts: string[] = [];
  for (const word of operands) {
    if (!word.literal) return UNKNOWN;
    const host = /^(?:rsync|scp|sftp):\/\//i.test(word.text)
      ? sshHost(word.text)
      : scpHost(word.text);
    if (host !== null) hosts.push(host);
  }
  if (command.binary === 'sftp') return operands.length === 0 ? UNKNOWN : sshNeed(command);
  return hosts.length === 0 ? null : { hosts: unique(hosts) };
}

/** A host named as the last operand (ping, traceroute) or the first (nc, telnet). */
function hostOperand(command: ShellCommand, spec: OptionSpec, last: boolean): Need {
  if (command.args.some((w) => w.text === '-l')) return UNKNOWN;
  const operands = operandWords(command.args, spec);
  const word = last ? operands.at(-1) : operands[0];
  if (word === undefined || !word.literal) return UNKNOWN;
  const host = urlHost(word.text, true);
  return host === null || host === 'local' ? UNKNOWN : { hosts: [host] };
}

const CLOUD_CLIS = new Set([
  'aws',
  'gcloud',
  'gsutil',
  'az',
  'kubectl',
  'helm',
  'terraform',
  'doctl',
  'flyctl',
  'fly',
  'vercel',
  'netlify',
  'heroku',
  'glab',
  'ftp',
  'lftp',
  'smbclient',
  'dig',
  'nslookup',
  'host',
  'whois',
  'drill',
  'socat',
  'npx',
  'bunx',
  'uvx',
  'pnpx',
]);
const PROGRAMS: ReadonlyMap<string, (command: ShellCommand) => Need> = new Map([
  ['curl', (c: ShellCommand) => curlLike(c, CURL)],
  ['wget', (c: ShellCommand) => curlLike(c, WGET)],
  ['http', (c: ShellCommand) => urlNeed(operandWords(c.args, CURL).slice(0, 1), true)],
  ['xh', (c: ShellCommand) => urlNeed(operandWords(c.args, CURL).slice(0, 1), true)],
  ['aria2c', (c: ShellCommand) => urlNeed(operandWords(c.args, { short: 'od', long: [] }), true)],
  [
    'gh',
    (c: ShellCommand) =>
      c.args.length === 0 || VERSION_WORDS.has(c.args[0]?.text ?? '')
        ? null
        : { hosts: ['github.com', 'api.github.com'] },
  ],
  ['ssh', sshNeed],
  ['mosh', sshNeed],
  ['scp', copyNeed],
  ['sftp', copyNeed],
  ['rsync', copyNeed],
  ['ping', (c: ShellCommand) => hostOperand(c, PING, true)],
  ['ping6', (c: ShellCommand) => hostOperand(c, PING, true)],
  ['traceroute', (c: ShellCommand) => hostOperand(c, PING, true)],
  ['tracepath', (c: ShellCommand) => hostOperand(c, PING, true)],
  ['mtr', (c: ShellCommand) => hostOperand(c, PING, true)],
  ['nc', (c: ShellCommand) => hostOperand(c, NC, false)],
  ['ncat', (c: ShellCommand) => hostOperand(c, NC, false)],
  ['netcat', (c: ShellCommand) => hostOperand(c, NC, false)],
  ['telnet', (c: ShellCommand) => hostOperand(c, NC, false)],
]);

function commandNeed(command: ShellCommand, remote?: RemoteHost): Need {
  const binary = command.binary;
  if (binary === null) return null;
  if (binary === 'git') return gitNeed(command, remote);
  const program = PROGRAMS.get(binary);
  if (program !== undefined) return program(command);
  if (CLOUD_CLIS.has(binary)) {
    return command.args.length === 0 || VERSION_WORDS.has(command.args[0]?.text ?? '')
      ? null
      : UNKNOWN;
  }
  return packageNeed(command) ?? null;
}

const CHANGES_DIRECTORY = new Set(['cd', 'pushd', 'popd']);

/**
 * What the line needs from the network: every command in it, wherever it appears. `remote`
 * (optional) names the hosts of git remotes in the directory the line starts in; it is not
 * asked when the line changes directory or git is pointed elsewhere (`-C`, `--git-dir`).
 */
export function networkUse(parsed: ParsedShell, remote?: RemoteHost): NetworkUse {
  const moves = parsed.commands.some((c) => c.binary !== null && CHANGES_DIRECTORY.has(c.binary));
  const lookup = moves ? undefined : remote;
  const need = joinNeeds(parsed.commands.map((command) => commandNeed(command, lookup)));
  if (need === null) return { needed: false };
  return { needed: true, hosts: need.hosts === null ? null : need.hosts };
}
