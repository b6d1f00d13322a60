// Package managers and their registries: `npm install` reaches registry.npmjs.org unless told
// another registry; system package managers reach mirrors named only in their own config.
import type { ShellCommand, ShellWord } from '../runtime/shell/types.ts';
import { joinNeeds, operandWords, UNKNOWN, urlNeed, valuesOf, type Need } from './network-words.ts';

const NPM_REGISTRY = ['registry.npmjs.org'];
const PYPI = ['pypi.org', 'files.pythonhosted.org'];
const CRATES = ['crates.io', 'index.crates.io', 'static.crates.io'];
const GO_PROXY = ['proxy.golang.org', 'sum.golang.org'];

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

const PACKAGE_PROGRAMS: ReadonlyMap<string, (command: ShellCommand) => Need> = new Map([
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
]);

/** A package manager's need; undefined when `command` is not a package manager. */
export function packageNeed(command: ShellCommand): Need | undefined {
  const binary = command.binary;
  if (binary === null) return undefined;
  const program = PACKAGE_PROGRAMS.get(binary);
  if (program !== undefined) return program(command);
  if (/^pip[\d.]*$/.test(binary)) return pipNeed(command.args);
  if (/^python[\d.]*$/.test(binary)) return pythonNeed(command);
  const subs = SYSTEM_PACKAGES.get(binary);
  if (subs === undefined) return undefined;
  if (binary === 'apt' || binary === 'apt-get') {
    const sub = operandWords(command.args, { short: 'otc', long: [] })[0]?.text;
    return sub !== undefined && subs.includes(sub) ? UNKNOWN : null;
  }
  return subcommandIn(command, subs, UNKNOWN);
}
