// Workspace rules for the project's own code: its build, test and lint scripts, and script
// files inside the working directory. What that code does cannot be read off the command line,
// so the promise is the sandbox's, not the parse's: no network, credential stores masked, and
// only the project's git work tree writable, its .git kept read-only (policy.ts). Installs,
// publishing and anything that fetches are not here, nor options that name other programs.
import {
  effects,
  words,
  type IsDirectory,
  type WorkspaceEffects,
  type WorkspaceRuleSpec,
} from './spec.ts';
import { refusedByAnyTool, refusedOption } from './runner-options.ts';

type Effects = WorkspaceEffects | null;

/** Code this project runs: with its script file, if the command names one. */
function runs(script?: string): WorkspaceEffects {
  return effects({ reads: script === undefined ? [] : [script], runs: true });
}

/** A script file below the working directory: relative, never climbing, not an option. */
function projectScript(path: string | undefined): path is string {
  if (path === undefined || /^[-/~+]/.test(path) || /[*?[$`]/.test(path)) return false;
  return !path.split('/').includes('..');
}

/**
 * Interpreters and launchers: their words are code (`./venv/bin/python -c code`,
 * `./node_modules/.bin/cross-env sh -c code`), wherever in the tree a copy or link of one sits.
 */
const LAUNCHER =
  /^(?:python[\d.]*|pypy[\d.]*|pip[\d.]*|ipython[\d.]*|node|nodejs|tsx|ts-node|deno|bun|bash|sh|dash|zsh|fish|ksh|perl|ruby|irb|php|lua|env|cross-env|npx|npm|pnpm|yarn|shx|rimraf|busybox)$/;

/**
 * A script of the project's own, not a dependency's or a tool's: nothing below node_modules or a
 * hidden directory (.venv, node_modules/.bin), no launcher, and not in the bin/ of an environment
 * (a virtualenv's bin/ beside its lib/ and include/ holds every installed package's commands).
 */
function ownScript(path: string | undefined, isDirectory: IsDirectory): path is string {
  if (!projectScript(path)) return false;
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  const name = segments.at(-1) ?? '';
  if (LAUNCHER.test(name)) return false;
  if (segments.slice(0, -1).some((dir) => dir === 'node_modules' || dir.startsWith('.')))
    return false;
  const env = segments.slice(0, -2).join('/') || '.';
  return !(segments.at(-2) === 'bin' && isDirectory(`${env}/lib`) && isDirectory(`${env}/include`));
}

// Options of the package managers' script runners that change nothing but output; anything
// else (--prefix, --workspace, a registry) asks. Words after `--` go to the script.
const RUN_FLAGS = { flags: ['-s', '--silent', '--if-present'] };

/**
 * `run <script>` and the direct script commands. With `binaries`, run falls back to a binary of
 * the dependencies when no script has the name (yarn: `yarn run rimraf src`, `yarn run cross-env
 * sh -c code`; pnpm is held to the same), so a name there takes no words after it: a binary's
 * words are its orders.
 */
function packageScript(direct: readonly string[], binaries = false) {
  return (args: readonly string[]): Effects => {
    const [sub, ...rest] = args;
    if (sub === undefined) return null;
    const running = sub === 'run' || sub === 'run-script';
    if (running ? !projectScript(rest[0]) : !direct.includes(sub)) return null;
    const parsed = words(running ? rest.slice(1) : rest, RUN_FLAGS);
    if (parsed === null || (binaries && running && parsed.operands.length > 0)) return null;
    return runs();
  };
}

// A new version number: a step (`minor`, `prepatch`) or a plain semver.
const VERSION_BUMP =
  /^(?:(?:pre)?(?:major|minor|patch)|prerelease|\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$/;

/**
 * `npm version minor --no-git-tag-version`: it rewrites package.json and its lock file and runs
 * the package's preversion, version and postversion scripts: project code. Without
 * --no-git-tag-version it commits and tags, which needs .git writable: that asks.
 */
function npmVersion(args: readonly string[]): Effects {
  if (args[0] !== 'version') return null;
  const parsed = words(args.slice(1), {
    flags: ['--no-git-tag-version', '--ignore-scripts', '--allow-same-version'],
  });
  if (parsed === null || parsed.values['--no-git-tag-version'] !== true) return null;
  const [bump, ...more] = parsed.operands;
  return bump !== undefined && more.length === 0 && VERSION_BUMP.test(bump) ? runs() : null;
}

/** Tools npx runs from the project's node_modules, by the package that brings each. */
const NPX_TOOLS: ReadonlyMap<string, string> = new Map([
  ['tsc', 'typescript'],
  ['eslint', 'eslint'],
  ['prettier', 'prettier'],
  ['vitest', 'vitest'],
  ['jest', 'jest'],
]);

/** How far up from the working directory npx's node_modules is looked for (src/app/ in a project). */
const NPX_CLIMB = 6;

/**
 * A tool the project has installed: the nearest node_modules/ at or above the working directory
 * holds its package, as npx finds it. Without it npx fetches the package from the registry and
 * runs it: an install, which asks (and which the sandbox, with no network, would doom).
 */
function npx(args: readonly string[], isDirectory: IsDirectory): Effects {
  const name = NPX_TOOLS.get(args[0] ?? '');
  if (name === undefined) return null;
  for (let up = 0; up <= NPX_CLIMB; up += 1) {
    const modules = `${'../'.repeat(up)}node_modules/`;
    if (isDirectory(modules)) return isDirectory(`${modules}${name}/`) ? runs() : null;
  }
  return null;
}

// make: targets and the options that only shape the run; -f, -C (unless leading: folded into the
// directory, directory-option.ts), -e and VAR=value ask. -n prints the recipes and runs less than
// make itself (only `+` lines, $(MAKE) and $(shell …)), with nothing writable.
const MAKE_DRY_RUN = ['-n', '--dry-run', '--just-print', '--recon'];

function make(args: readonly string[]): Effects {
  const parsed = words(args, {
    // -B remakes what exists, by make's built-in rules when no Makefile names it.
    flags: ['-k', '--keep-going', '-s', '--silent', ...MAKE_DRY_RUN],
    valued: ['-j', '--jobs'],
  });
  if (parsed === null || !parsed.operands.every((t) => /^[\w][\w./-]*$/.test(t))) return null;
  const dryRun = MAKE_DRY_RUN.some((flag) => parsed.values[flag] === true);
  return effects({ runs: true, dryRun });
}

function subcommands(allowed: readonly string[]) {
  return (args: readonly string[]): Effects =>
    args[0] !== undefined && allowed.includes(args[0]) ? runs() : null;
}

/**
 * A script's own words, which no rule can read: plain words only (a code string has spaces,
 * quotes or brackets: `manage.py shell -c "import os; ..."`), and none that commonly hands the
 * next word to an interpreter (`bin/rails runner User.delete_all`, `manage.py shell`).
 */
const PLAIN_WORD = /^[\w./:=@%+,-]*$/;
const CODE_WORDS: ReadonlySet<string> = new Set([
  '-c',
  '-e',
  '--eval',
  '--exec',
  '--command',
  '--code',
  'eval',
  'exec',
  'shell',
  'runner',
  'console',
  'dbshell',
  'repl',
]);

function plainScriptWords(scriptWords: readonly string[]): boolean {
  return scriptWords.every(
    (word) => PLAIN_WORD.test(word) && !CODE_WORDS.has(word.split('=')[0] ?? ''),
  );
}

// An interpreter given a script of the project's first: no -c, -e, -m or stdin.
function interpreter(args: readonly string[], isDirectory: IsDirectory): Effects {
  const [first, ...rest] = args;
  return ownScript(first, isDirectory) && plainScriptWords(rest) ? runs(first) : null;
}

// bash (and sh, where it is bash) looks a script name with no slash up in PATH when the cwd has
// none: `bash python3 -c code` ran a pyenv shim with inline code. A shell script's name has a
// slash or a shell suffix.
function shellScript(args: readonly string[], isDirectory: IsDirectory): Effects {
  const [first] = args;
  if (first === undefined || (!first.includes('/') && !/\.(?:sh|bash)$/.test(first))) return null;
  return interpreter(args, isDirectory);
}

/** Python's linters, type checkers and formatters: they read (and format) the project's files. */
export const PYTHON_LINTERS: ReadonlySet<string> = new Set([
  'ruff',
  'flake8',
  'pyflakes',
  'pycodestyle',
  'pylint',
  'mypy',
  'black',
  'isort',
]);

// python also runs its own test runners, and the linters above, as modules.
function python(args: readonly string[], isDirectory: IsDirectory): Effects {
  if (args[0] !== '-m') return interpreter(args, isDirectory);
  const module = args[1] ?? '';
  return module === 'pytest' || module === 'unittest' || PYTHON_LINTERS.has(module) ? runs() : null;
}

/** The option words a module run by `python -m` refuses: pytest's or the linters'. */
function pythonModuleOptions(args: readonly string[]): (word: string) => boolean {
  if (args[0] !== '-m') return () => false;
  return refusedOption(PYTHON_LINTERS.has(args[1] ?? '') ? 'python-lint' : 'pytest');
}

// node's own test runner: `node --test` finds the project's test files, or runs those named
// (plain project paths); its reporters and other options ask.
const NODE_TEST_FLAGS = ['--test-only', '--test-concurrency', '--test-name-pattern'];

function node(args: readonly string[], isDirectory: IsDirectory): Effects {
  if (args[0] !== '--test') return interpreter(args, isDirectory);
  const rest = args.slice(1);
  const plain = rest.every((word) =>
    word.startsWith('-') ? NODE_TEST_FLAGS.includes(word.split('=')[0] ?? '') : projectScript(word),
  );
  return plain ? runs() : null;
}

/** `./build.sh`: the matcher passes the script path as the first word. */
export const SCRIPT_BINARY = './';

function script(args: readonly string[], isDirectory: IsDirectory): Effects {
  const [first, ...rest] = args;
  return ownScript(first?.slice(2), isDirectory) && plainScriptWords(rest) ? runs(first) : null;
}

/**
 * A word that names nothing outside the project: no absolute or home path and no `..`, wherever a
 * path may start in it: the word, an option's value (--config=/x, and a short option's attached
 * one: `pytest -c/home/u/evil.ini` loaded a plugin from there), a list's items, an argument file
 * (@/x). Code a runner loads by path then comes from the work tree, which unreviewed.ts watches.
 */
/**
 * Code carried in a word, with no file the unreviewed record could see: a data: URL, or an
 * option that loads or evaluates a module (node's --import, --require, --loader, --eval,
 * vitest's --execArgv, eslint's and prettier's plugins).
 */
const INLINE_CODE =
  /data:|^--?(?:import|require|loader|experimental-loader|execArgv|eval|print|plugin)(?:=|$)/i;

function staysInProject(word: string): boolean {
  if (INLINE_CODE.test(word)) return false;
  const attached = /^-[A-Za-z]+(.+)$/.exec(word)?.[1];
  const pieces = [word, ...(attached === undefined ? [] : [attached])].flatMap((text) =>
    text.split(/[=:,@]/),
  );
  return pieces.every((piece) => !/^[/~]/.test(piece) && !piece.split('/').includes('..'));
}

function rule(
  name: string,
  binary: string,
  fn: WorkspaceRuleSpec['effects'],
  match: string,
  noMatch: string,
  refuses: (args: readonly string[]) => (word: string) => boolean = () => () => false,
): WorkspaceRuleSpec {
  const effects: WorkspaceRuleSpec['effects'] = (args, isDirectory) =>
    args.every(staysInProject) && !args.some(refuses(args)) ? fn(args, isDirectory) : null;
  return { name, binary, effects, examples: { match: [match], no_match: [noMatch] } };
}

/** The refused options of one tool, whatever the arguments. */
const toolOptions = (tool: string) => () => refusedOption(tool);

/** The project-code rules. */
export const RUNNER_WORKSPACE: readonly WorkspaceRuleSpec[] = [
  ...(
    [
      ['npm', packageScript(['test', 't']), 'npm run build', 'npm test -- --clearCache'],
      ['yarn', packageScript(['test', 'build', 'lint'], true), 'yarn build', 'yarn run rimraf src'],
      ['pnpm', packageScript(['test', 'build', 'lint'], true), 'pnpm test', 'pnpm i'],
    ] as const
  ).map(([binary, fn, match, noMatch]) =>
    rule(`${binary} run`, binary, fn, match, noMatch, () => refusedByAnyTool),
  ),
  rule(
    'npm version',
    'npm',
    npmVersion,
    'npm version minor --no-git-tag-version',
    'npm version minor',
  ),
  rule('npx', 'npx', npx, 'npx tsc --noEmit', 'npx eslint -o src/a.ts src', (args) =>
    refusedOption(args[0] ?? ''),
  ),
  rule('make', 'make', make, 'make -j4 test', 'make -C /etc'),
  rule(
    'cargo',
    'cargo',
    subcommands(['build', 'test', 'check', 'clippy', 'bench', 'doc', 'fmt']),
    'cargo test',
    'cargo build --config build.rustc-wrapper=sh',
    toolOptions('cargo'),
  ),
  rule(
    'go',
    'go',
    subcommands(['build', 'test', 'vet']),
    'go test ./...',
    'go test -exec sh ./...',
    toolOptions('go'),
  ),
  rule(
    'pytest',
    'pytest',
    () => runs(),
    'pytest -q tests/',
    'pytest -p evil',
    toolOptions('pytest'),
  ),
  ...['python', 'python3'].map((binary) =>
    rule(
      binary,
      binary,
      python,
      `${binary} -m pytest -q`,
      `${binary} -m pytest --basetemp=src`,
      // A script's words are held to plainScriptWords; a module runner's to its refused options.
      pythonModuleOptions,
    ),
  ),
  ...[...PYTHON_LINTERS].map((binary) =>
    rule(
      binary,
      binary,
      () => runs(),
      `${binary} src`,
      `${binary} --cache-dir=src src`,
      () => refusedOption('python-lint'),
    ),
  ),
  rule('node', 'node', node, 'node --test test/util.test.js', 'node --test --test-reporter=./r.js'),
  ...['bash', 'sh'].map((binary) =>
    rule(binary, binary, shellScript, `${binary} scripts/check.sh`, `${binary} python3 -c 1`),
  ),
  rule('project script', SCRIPT_BINARY, script, './build.sh --dry-run', './../x.sh'),
];
