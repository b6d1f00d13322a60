// Read-only queries of language toolchains: versions, installed packages, configuration.
// Interpreters are matched only with their version flag, since a bare one runs its stdin.
import { refusing, sub, version, type ReadOnlyRuleSpec } from './spec.ts';

// npm config keys that hold credentials (`//registry/:_authToken`, `_auth`, `cafile` ...).
const SECRET_KEY = /auth|token|pass|secret|key|cert|_/i;

// pip options that only shape what list, show and freeze print; --log writes, --python runs
// another interpreter, -r reads a requirements file by a name we do not see as a path.
const PIP_FLAGS = [
  '-o',
  '--outdated',
  '-u',
  '--uptodate',
  '-e',
  '--editable',
  '-l',
  '--local',
  '--user',
  '--format',
  '--not-required',
  '--exclude-editable',
  '--include-editable',
  '--pre',
  '--all',
  '--exclude',
  '-f',
  '--files',
  '-v',
  '--verbose',
  '-q',
  '--quiet',
];

const PIPS = ['pip', 'pip3'].flatMap((binary) => [
  sub(
    binary,
    ['list', 'show', 'freeze'],
    {
      match: [`${binary} list --outdated`, `${binary} show -f zod`],
      no_match: [`${binary} install x`],
    },
    { allowed_flags: PIP_FLAGS },
  ),
  version(binary, ['--version', '-V']),
]);

/** A syntax check: the file is parsed, never run (`node --check f.js`, `bash -n f.sh`). */
function syntaxCheck(binary: string, flags: readonly string[], match: string): ReadOnlyRuleSpec {
  return {
    name: `${binary} ${flags[0] ?? ''}`,
    binary,
    allowed_flags: flags,
    required_flags: flags,
    max_args: 1,
    examples: { match: [match], no_match: [`${binary} ${flags[0] ?? ''} -e 1 x`] },
  };
}

// apt-cache options that shape what it prints: -o, -c, -p and -s pick other configs and caches,
// which it would write.
const APT_CACHE_FLAGS = [
  '-n',
  '--names-only',
  '-f',
  '--full',
  '-i',
  '--important',
  '--installed',
  '--recurse',
  '--no-all-versions',
  '--all-versions',
  '-q',
  '--quiet',
];

// dpkg's query actions; every other action installs, removes or configures.
const DPKG_QUERIES = ['-l', '--list', '-L', '--listfiles', '-s', '--status', '-S', '--search'];

/**
 * `python3 -m pip list|show|freeze`: pip's read-only queries run through the interpreter, as the
 * pip rules above take them (package names are not paths); any other module or subcommand, or an
 * interpreter option, is refused.
 */
const PYTHON_PIPS = ['python', 'python3'].map((binary): ReadOnlyRuleSpec => ({
  name: `${binary} -m pip list`,
  binary,
  allowed_flags: ['-m', ...PIP_FLAGS],
  required_flags: ['-m'],
  paths: (args) =>
    args[0] === '-m' &&
    (args[1] === 'pip' || args[1] === 'pip3') &&
    ['list', 'show', 'freeze'].includes(args[2] ?? '')
      ? []
      : null,
  examples: {
    match: [`${binary} -m pip show requests`, `${binary} -m pip list --outdated`],
    no_match: [
      `${binary} -m pip install requests`,
      `${binary} -m http.server`,
      `${binary} -I -m pip list`,
    ],
  },
}));

/** Toolchain rules: node, python, npm, pip, go, the system's package database. */
export const TOOLCHAIN_READ_ONLY: readonly ReadOnlyRuleSpec[] = [
  version('node', ['--version', '-v']),
  syntaxCheck('node', ['--check', '-c'], 'node --check src/util.js'),
  ...['bash', 'sh'].map((binary) => syntaxCheck(binary, ['-n'], `${binary} -n scripts/backup.sh`)),
  // A shell script linter: it parses the scripts it is given (and, with -x, those they source).
  {
    name: 'shellcheck',
    binary: 'shellcheck',
    allowed_flags: [
      '-x',
      '--external-sources',
      '-s',
      '--shell',
      '-S',
      '--severity',
      '-e',
      '--exclude',
      '-i',
      '--include',
      '-f',
      '--format',
      '-o',
      '--enable',
      '-a',
      '--check-sourced',
      '-C',
      '--color',
      '-P',
      '--source-path',
      '-W',
      '--wiki-link-count',
    ],
    examples: {
      match: ['shellcheck -x scripts/backup.sh'],
      no_match: ['shellcheck --rcfile=x a.sh'],
    },
  },
  sub(
    'apt-cache',
    ['policy', 'show', 'search', 'depends', 'rdepends', 'madison', 'showpkg'],
    { match: ['apt-cache policy jq ripgrep'], no_match: ['apt-cache -o Dir::Cache=x policy jq'] },
    { allowed_flags: APT_CACHE_FLAGS },
  ),
  ...['dpkg', 'dpkg-query'].map((binary) => ({
    name: `${binary} -l`,
    binary,
    allowed_flags: DPKG_QUERIES,
    required_flags: DPKG_QUERIES,
    examples: { match: [`${binary} -l 'python3*'`], no_match: [`${binary} -i x.deb`] },
  })),
  version('python3', ['--version', '-V']),
  version('python', ['--version', '-V']),
  sub('npm', ['ls', 'list'], { match: ['npm ls --depth=0'], no_match: ['npm install'] }),
  sub('npm', ['view', 'info'], { match: ['npm view zod version'], no_match: ['npm publish'] }),
  // npm outdated asks the registry and prints; it installs nothing.
  sub(
    'npm',
    ['outdated'],
    { match: ['npm outdated --json'], no_match: ['npm update'] },
    {
      allowed_flags: [
        '--json',
        '--long',
        '--all',
        '--parseable',
        '-g',
        '--global',
        '-a',
        '-l',
        '-p',
      ],
    },
  ),
  sub(
    'npm',
    ['config get'],
    {
      match: ['npm config get registry'],
      no_match: ['npm config set registry x', 'npm config get //registry.npmjs.org/:_authToken'],
    },
    { allowed_flags: [], max_args: 1, paths: refusing(SECRET_KEY) },
  ),
  version('npm', ['--version', '-v']),
  ...PIPS,
  ...PYTHON_PIPS,
  sub('go', ['version'], { match: ['go version'], no_match: ['go run .'] }),
  // go env -w / -u rewrite the go env file.
  sub(
    'go',
    ['env'],
    { match: ['go env GOPATH'], no_match: ['go env -w GOPROXY=direct'] },
    { allowed_flags: ['-json', '-changed'] },
  ),
  // go list -export and -compiled build (and run cgo); -toolexec and the other build flags are
  // refused by the allow list.
  sub(
    'go',
    ['list'],
    {
      match: ['go list -m all', "go list -f '{{.Dir}}' ./..."],
      no_match: ['go list -export ./...'],
    },
    { allowed_flags: ['-m', '-json', '-f', '-deps', '-e', '-find', '-versions', '-u', '-test'] },
  ),
];
