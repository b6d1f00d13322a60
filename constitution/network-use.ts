// Which hosts a command line reaches, read off its parse: the approval card says "Needs the
// network: github.com", and the sandbox gives an approved call the network it needs. Pure.
import type { ParsedShell, ShellCommand, ShellWord } from '../runtime/shell/types.ts';
import {
  gitRemoteHost,
  operandWords,
  scpHost,
  sshHost,
  urlHost,
  valuesOf,
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

/** One command's need: null when it needs no network; hosts null when they are unknown. */
type Need = { readonly hosts: readonly string[] | null } | null;

const UNKNOWN: Need = { hosts: null };
const NPM_REGISTRY = ['registry.npmjs.org'];
const PYPI = ['pypi.org', 'files.pythonhosted.org'];
const CRATES = ['crates.io', 'index.crates.io', 'static.crates.io'];
const GO_PROXY = ['proxy.golang.org', 'sum.golang.org'];

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
const RSYNC: OptionSpec = { short: 'efTB', long: ['--rsh', '--filter', '--exclude', '--include'] };
const PING: OptionSpec = { short: 'ciWwstImpqfMQ', long: [] };
const NC: OptionSpec = { short: 'psiwqxXeIOT', long: [] };

function unique(hosts: readonly string[]): string[] {
  return [...new Set(hosts)];
}

/** Hosts of the given words read as URLs; unknown when one is not literal or names no host. */
function urlNeed(words: readonly ShellWord[], schemeless: boolean): Need {
  const hosts: string[] = [];
  let local = 0;
  for (const word of words) {
    if (!word.literal) return UNKNOWN;
    const host = urlHost(word.text, schemeless);
    if (host === null) return UNKNOWN;
    if (host === 'local') local += 1;
    else hosts.push(host);
  }
  if (hosts.length === 0) return local > 0 && local === words.length ? null : UNKNOWN;
  return { hosts: unique(hosts) };
}

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

/** A package manager's registry, or the one given with `--registry`/`--index-url`. */
function registryNeed(
  command: ShellCommand,
  defaults: readonly string[],
  options: readonly string[],
): Need {
  const given = valuesOf(command.args, null, options);
  if (given.length === 0) return { hosts: defaults };
  return urlNeed(given, false);
}

function pipNeed(args: readonly ShellWord[]): Need {
  const sub = args[0]?.text;
  if (!['install', 'download', 'wheel', 'index', 'search'].includes(sub ?? '')) return null;
  if (args.some((word) => word.text === '--no-index')) return null;
  const index = valuesOf(args, '-i', ['--index-url']);
  const extra = valuesOf(args, null, ['--extra-index-url']);
  const base = index.length === 0 ? { hosts: PYPI } : urlNeed(index, false);
  const more = extra.length === 0 ? { hosts: [] } : urlNeed(extra, false);
  const direct = args.filter((word) => /^(?:git\+)?[a-z]+:\/\//i.test(word.text));
  const fromUrls = direct.length === 0 ? { hosts: [] } : urlNeed(direct, false);
  return joinNeeds([base, more, fromUrls]);
}

const NPM_NETWORK = new Set([
  'install',
  'i',
  'in',
  'add',
  'ci',
  'clean-install',
  'install-test',
  'it',
  'update',
  'up',
  'upgrade',
  'outdated',
  'publish',
  'unpublish',
  'view',
  'v',
  'info',
  'show',
  'search',
  'audit',
  'login',
  'adduser',
  'whoami',
  'dist-tag',
  'deprecate',
  'owner',
  'fetch',
]);
// Commands that download a package and run it: the package may reach anything.
const NPM_RUNS_PACKAGE = new Set(['exec', 'x', 'dlx', 'create']);

function jsPackageNeed(command: ShellCommand, registry: readonly string[]): Need {
  const [first] = operandWords(command.args, { short: '', long: ['--registry'] });
  const sub = first?.text;
  if (sub === undefined) return command.binary === 'yarn' ? { hosts: registry } : null;
  if (NPM_RUNS_PACKAGE.has(sub) || (sub === 'init' && command.args.length > 1)) return UNKNOWN;
  if (!NPM_NETWORK.has(sub)) return null;
  // A git or URL spec (`user/repo`, `github:x/y`, `https://…`) comes from its own host.
  const specs = operandWords(command.args, { short: '', long: ['--registry'] }).slice(1);
  if (specs.some((w) => !w.literal || /^[^@.][^/]*\/|:/.test(w.text))) return UNKNOWN;
  return registryNeed(command, registry, ['--registry']);
}

const GIT_GLOBAL: OptionSpec = { short: 'Cc', long: ['--git-dir', '--work-tree', '--namespace'] };
const GIT_REMOTE_VALUED: OptionSpec = {
  short: 'bojuO',
  long: [
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
  ],
};

function gitRemoteNeed(operand: ShellWord | undefined): Need {
  if (operand === undefined || !operand.literal) return UNKNOWN;
  const host = gitRemoteHost(operand.text);
  if (host === 'local') return null;
  return host === 'named' ? UNKNOWN : { hosts: [host] };
}

function gitNeed(command: ShellCommand): Need {
  const words = operandWords(command.args, GIT_GLOBAL);
  const at = words[0] === undefined ? -1 : command.args.indexOf(words[0]);
  const sub = words[0]?.text;
  const rest = command.args.slice(at + 1);
  const operands = operandWords(rest, GIT_REMOTE_VALUED);
  switch (sub) {
    case 'clone':
      return gitRemoteNeed(operands[0]);
    case 'fetch':
    case 'pull':
    case 'push':
    case 'ls-remote':
      if (rest.some((w) => w.text === '--all' || w.text === '--multiple')) return UNKNOWN;
      return gitRemoteNeed(operands[0]);
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
  const operands = operandWords(command.args, command.binary === 'rsync' ? RSYNC : SSH);
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

function subcommandIn(command: ShellCommand, subs: readonly string[], hosts: Need): Need {
  const sub = operandWords(command.args, { short: '', long: [] })[0]?.text;
  return sub !== undefined && subs.includes(sub) ? hosts : null;
}

function pythonNeed(command: ShellCommand): Need {
  const { args } = command;
  if (args[0]?.text === '-m' && (args[1]?.text === 'pip' || args[1]?.text === 'pip3')) {
    return pipNeed(args.slice(2));
  }
  return null;
}

function uvNeed(command: ShellCommand): Need {
  const sub = command.args[0]?.text;
  if (sub === 'pip' || sub === 'tool') {
    const inner = command.args.slice(1);
    if (sub === 'tool') return inner[0]?.text === 'install' ? { hosts: PYPI } : null;
    return inner[0]?.text === 'compile' ? { hosts: PYPI } : pipNeed(inner);
  }
  if (sub === 'python') return command.args[1]?.text === 'install' ? UNKNOWN : null;
  return ['add', 'sync', 'lock'].includes(sub ?? '') ? { hosts: PYPI } : null;
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
const VERSION_WORDS = new Set(['--version', '-v', '-V', 'version', 'help', '--help', '-h']);

/** System package managers: the mirrors live in their own configuration. */
const SYSTEM_PACKAGES: ReadonlyMap<string, readonly string[]> = new Map([
  ['apt', ['update', 'install', 'upgrade', 'full-upgrade', 'dist-upgrade', 'download', 'source']],
  ['apt-get', ['update', 'install', 'upgrade', 'dist-upgrade', 'download', 'source', 'build-dep']],
  ['dnf', ['install', 'update', 'upgrade', 'makecache', 'download']],
  ['yum', ['install', 'update', 'upgrade', 'makecache']],
  ['zypper', ['install', 'in', 'update', 'up', 'refresh', 'ref', 'dist-upgrade', 'dup']],
  ['apk', ['add', 'update', 'upgrade', 'fetch']],
  ['brew', ['install', 'update', 'upgrade', 'tap', 'fetch', 'reinstall', 'search']],
  ['snap', ['install', 'refresh', 'download']],
  ['flatpak', ['install', 'update', 'remote-add']],
  ['conda', ['install', 'create', 'update', 'search']],
  ['mamba', ['install', 'create', 'update', 'search']],
  ['docker', ['pull', 'push', 'login', 'search', 'build']],
  ['podman', ['pull', 'push', 'login', 'search', 'build']],
  ['bundle', ['install', 'update', 'add']],
  ['composer', ['install', 'update', 'require', 'create-project']],
  ['deno', ['install', 'cache', 'upgrade']],
]);

const PROGRAMS: ReadonlyMap<string, (command: ShellCommand) => Need> = new Map([
  ['curl', (c: ShellCommand) => curlLike(c, CURL)],
  ['wget', (c: ShellCommand) => curlLike(c, WGET)],
  ['http', (c: ShellCommand) => urlNeed(operandWords(c.args, CURL).slice(0, 1), true)],
  ['xh', (c: ShellCommand) => urlNeed(operandWords(c.args, CURL).slice(0, 1), true)],
  ['aria2c', (c: ShellCommand) => urlNeed(operandWords(c.args, { short: 'od', long: [] }), true)],
  ['git', gitNeed],
  ['npm', (c: ShellCommand) => jsPackageNeed(c, NPM_REGISTRY)],
  ['pnpm', (c: ShellCommand) => jsPackageNeed(c, NPM_REGISTRY)],
  ['bun', (c: ShellCommand) => jsPackageNeed(c, NPM_REGISTRY)],
  ['yarn', (c: ShellCommand) => jsPackageNeed(c, ['registry.yarnpkg.com'])],
  ['pip', (c: ShellCommand) => pipNeed(c.args)],
  [
    'pipx',
    (c: ShellCommand) => subcommandIn(c, ['install', 'upgrade', 'reinstall'], { hosts: PYPI }),
  ],
  [
    'poetry',
    (c: ShellCommand) =>
      subcommandIn(c, ['install', 'add', 'update', 'lock', 'publish', 'search'], { hosts: PYPI }),
  ],
  ['uv', uvNeed],
  [
    'cargo',
    (c: ShellCommand) =>
      subcommandIn(
        c,
        [
          'install',
          'fetch',
          'update',
          'add',
          'search',
          'publish',
          'login',
          'generate-lockfile',
          'owner',
          'yank',
        ],
        { hosts: CRATES },
      ),
  ],
  [
    'go',
    (c: ShellCommand) =>
      c.args[0]?.text === 'get' ||
      (c.args[0]?.text === 'install' && c.args.some((w) => w.text.includes('@'))) ||
      (c.args[0]?.text === 'mod' && ['download', 'tidy'].includes(c.args[1]?.text ?? ''))
        ? { hosts: GO_PROXY }
        : null,
  ],
  [
    'gem',
    (c: ShellCommand) =>
      subcommandIn(c, ['install', 'update', 'fetch', 'search', 'push'], {
        hosts: ['rubygems.org'],
      }),
  ],
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

function commandNeed(command: ShellCommand): Need {
  const binary = command.binary;
  if (binary === null) return null;
  const program = PROGRAMS.get(binary);
  if (program !== undefined) return program(command);
  if (/^pip[\d.]*$/.test(binary)) return pipNeed(command.args);
  if (/^python[\d.]*$/.test(binary)) return pythonNeed(command);
  if (CLOUD_CLIS.has(binary)) {
    return command.args.length === 0 || VERSION_WORDS.has(command.args[0]?.text ?? '')
      ? null
      : UNKNOWN;
  }
  const subs = SYSTEM_PACKAGES.get(binary);
  if (subs === undefined) return null;
  if (binary === 'apt' || binary === 'apt-get') {
    const sub = operandWords(command.args, { short: 'otc', long: [] })[0]?.text;
    return sub !== undefined && subs.includes(sub) ? UNKNOWN : null;
  }
  return subcommandIn(command, subs, UNKNOWN);
}

function joinNeeds(needs: readonly Need[]): Need {
  const used = needs.filter((need): need is NonNullable<Need> => need !== null);
  if (used.length === 0) return null;
  if (used.some((need) => need.hosts === null)) return UNKNOWN;
  return { hosts: unique(used.flatMap((need) => need.hosts ?? [])) };
}

/** What the line needs from the network: every command in it, wherever it appears. */
export function networkUse(parsed: ParsedShell): NetworkUse {
  const need = joinNeeds(parsed.commands.map(commandNeed));
  if (need === null) return { needed: false };
  return { needed: true, hosts: need.hosts === null ? null : need.hosts };
}
