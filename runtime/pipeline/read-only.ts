// The read-only catalogue, applied to a parsed command line: a call is read-only only when EVERY
// command matches a rule, every word is literal, nothing is written, nothing is substituted and
// every path passes the caller's check (guard + scope). Issue 6: the policy allows these unasked.
import { DEVICE_METADATA_COMMANDS } from '../../constitution/forbidden-paths.ts';
import { spellLongOptions } from '../../constitution/read-only/long-options.ts';
import { COMPARERS } from '../../constitution/opened-inside.ts';
import {
  BUILT_IN_READ_ONLY,
  PATTERN_FIRST,
  RECURSIVE_READERS,
  type ReadOnlyRuleSpec,
} from '../../constitution/read-only-commands.ts';
import {
  DEVICE_CONTENT_OPTIONS,
  DEVICE_NODE_READERS,
} from '../../constitution/read-only/devices.ts';
import type { ReadOnlyRuleConfig } from '../config.ts';
import { ConfigError } from '../errors.ts';
import { parseShell } from '../shell/parse.ts';
import type { ParsedShell, ShellCommand, ShellWord } from '../shell/types.ts';
import { containedTree } from './scope-paths.ts';
import { messageForm, readsStoredText, readsWorkTree } from '../../constitution/git-stored-text.ts';
import { GIT_QUIET_GLOBALS } from '../../constitution/read-only/git.ts';

/** How a matched command uses a path it asks the caller about. */
export interface PathUse {
  /** The text is a glob pattern (isPlainGlob): the shell expands it to paths that start like it. */
  readonly glob: boolean;
  /** The command only looks at a raw device's metadata (ls, stat, lsblk /dev/sda), never its bytes. */
  readonly deviceMetadata: boolean;
  /** The command reads every file below the path (grep -r, rg, diff -r): the guard sees only its top. */
  readonly tree?: boolean;
  /**
   * The command opens the files inside the path when it is a directory (diff DIR DIR compares
   * every file in both): a directory there is read as a tree.
   */
  readonly opensInside?: boolean;
  /**
   * With `tree`: the reader is code the sandbox shows the tree with every credential file below it
   * hidden (code-view.ts), so a file holding one is no obstacle; a protected place still is.
   */
  readonly credentialsMasked?: boolean;
  /**
   * The path is where the command runs, and it prints this part of the repository there; or,
   * for 'programs', git runs there and may start what the repository's config names; for
   * 'stored-text', it prints or searches the text of every file version the repository stores
   * (constitution/git-stored-text.ts: `git diff HEAD~1`, `git log -G RE`), whatever their names;
   * for 'messages', it prints commit and tag messages (`git log --oneline`, `git branch -v`).
   */
  readonly repository?: 'objects' | 'config' | 'programs' | 'stored-text' | 'messages';
  /** With 'messages': it searches, formats or re-encodes them (`--grep`, `--format=%s`). */
  readonly reshaped?: boolean;
  /** With 'stored-text': it prints tracked files' uncommitted edits too (`git diff`, not `--cached`). */
  readonly workTree?: boolean;
  /**
   * The path is a SQLite database (or its write-ahead log) a query opens: the SQL stored in it
   * (a view, a trigger, a virtual table, a generated column) runs too, unread by the check of
   * the typed SQL (runtime/pipeline/stored-sql.ts).
   */
  readonly database?: boolean;
}

/** The caller's path check (guard + scope); no `use` means the path's content is read. */
export type PathCheck = (path: string, use?: PathUse) => boolean;

/** The loaded catalogue: rules by binary (built-in and the operator's). */
export interface ReadOnlyCatalogue {
  readonly rules: ReadonlyMap<string, readonly ReadOnlyRuleSpec[]>;
}

// Wrappers that change nothing but scheduling or lookup; sudo, env, xargs ... never auto-allow.
const QUIET_WRAPPERS: ReadonlySet<string> = new Set([
  'nice',
  'command',
  'builtin',
  'busybox',
  'stdbuf',
  'timeout',
  'ionice',
]);

/** True when every wrapper around the command only changes scheduling or lookup (nice, timeout ...). */
export function onlyQuietWrappers(command: ShellCommand): boolean {
  return command.wrappers.every(
    (w) => QUIET_WRAPPERS.has(w.name) && w.args.every((a) => a.literal),
  );
}

function isFlag(word: ShellWord): boolean {
  return word.text.length > 1 && (word.text.startsWith('-') || word.text.startsWith('+'));
}

function split(args: readonly ShellWord[]): { flags: string[]; operands: string[] } {
  const flags: string[] = [];
  const operands: string[] = [];
  let ended = false;
  for (const arg of args) {
    if (!ended && arg.text === '--') ended = true;
    else if (!ended && isFlag(arg)) flags.push(arg.text);
    else operands.push(arg.text);
  }
  return { flags, operands };
}

function isForbidden(flag: string, forbidden: readonly string[]): boolean {
  return forbidden.some((f) => {
    if (flag === f) return true;
    // getopt_long and git take any unambiguous prefix of a long option: --outp=x is --output=x.
    if (f.startsWith('--')) {
      const name = flag.split('=')[0] ?? '';
      return name.startsWith('--') && name.length > 2 && f.startsWith(name);
    }
    // A single letter also hides in a cluster (-uo) or with its value attached (-ofile).
    if (f.length === 2)
      return (
        /^-[A-Za-z0-9]/.test(flag) && !flag.startsWith('--') && flag.slice(1).includes(f.slice(1))
      );
    return flag.startsWith(f);
  });
}

function isAllowed(flag: string, allowed: readonly string[]): boolean {
  if (allowed.includes(flag) || allowed.includes(flag.split('=')[0] as string)) return true;
  if (flag.startsWith('--') || !flag.startsWith('-')) return false;
  // A count attached to the last letter (`git tag -n1`, `-n20`) is that option's value.
  const letters = flag.slice(1).replace(/(?<=[A-Za-z])\d+$/, '');
  return [...letters].every((letter) => allowed.includes(`-${letter}`));
}

/** True when the option is one of `required`, alone, with a value or in a short cluster. */
function isPresent(flag: string, required: readonly string[]): boolean {
  if (required.includes(flag) || required.includes(flag.split('=')[0] as string)) return true;
  return /^-[A-Za-z0-9]+$/.test(flag) && [...flag.slice(1)].some((l) => required.includes(`-${l}`));
}

/** True when these options make a recursive reader recurse (abbreviated or clustered too: --recur, -nr). */
function recurses(binary: string, flags: readonly string[]): boolean {
  const recursive = RECURSIVE_READERS.get(binary);
  if (recursive === undefined) return false;
  return recursive.length === 0 || flags.some((f) => isForbidden(f, recursive));
}

/**
 * The trees a recursive reader (or a `trees` rule: git diff) reads whole, or null when it may not
 * read them: each one relative, below the working directory and out of hidden places
 * (scope-paths.ts containedTree); the caller's path check then places them (PathUse.tree).
 */
function recursionTrees(
  rule: ReadOnlyRuleSpec,
  flags: readonly string[],
  operands: readonly string[],
): readonly string[] | null {
  if (rule.trees === true) return operands.every(containedTree) ? operands : null;
  if (!recurses(rule.binary, flags)) return [];
  // grep -r and rg with no path search the working directory itself.
  const paths = PATTERN_FIRST.has(rule.binary) ? operands.slice(1) : operands;
  return paths.length > 0 && paths.every(readableTree) ? paths : null;
}

/**
 * A tree a recursive reader may search: one below the working directory (containedTree), the
 * working directory itself (`.`), or a `~/dir` spelling of one. The caller's path check then
 * places it strictly below a write root and never around the home (read-only-policy.ts).
 */
function readableTree(path: string): boolean {
  if (path === '.' || path === './') return true;
  return containedTree(path.startsWith('~/') ? path.slice(2) : path);
}

function ruleMatches(
  rule: ReadOnlyRuleSpec,
  args: readonly ShellWord[],
  pathOk: (path: string, tree: boolean) => boolean,
): boolean {
  const { flags, operands } = split(args);
  const refused = rule.refused_words;
  if (refused !== undefined && args.some((arg) => refused.test(arg.text))) return false;
  let rest = operands;
  if (rule.subcommands !== undefined) {
    const sub = rule.subcommands
      .map((s) => s.split(' '))
      .find((words) => words.every((w, i) => operands[i] === w));
    if (sub === undefined) return false;
    rest = operands.slice(sub.length);
  }
  if (
    rule.forbidden_flags !== undefined &&
    flags.some((f) => isForbidden(f, rule.forbidden_flags ?? []))
  )
    return false;
  if (
    rule.allowed_flags !== undefined &&
    !flags.every((f) => isAllowed(f, rule.allowed_flags ?? []))
  )
    return false;
  if (
    rule.required_flags !== undefined &&
    !flags.some((f) => isPresent(f, rule.required_flags ?? []))
  )
    return false;
  if (rule.max_args !== undefined && rest.length > rule.max_args) return false;
  const trees = recursionTrees(rule, flags, rest);
  if (trees === null) return false;
  const ok = (path: string): boolean => pathOk(path, trees.includes(path));
  if (rule.opens_nothing === true) return args.filter((a) => a.glob).every((a) => ok(a.text));
  if (rule.paths !== undefined) {
    const paths = rule.paths(args.map((a) => a.text));
    return paths !== null && paths.every(ok);
  }
  const patterns = rule.pattern_options ?? [];
  const flagValues = flags.flatMap((f) =>
    f.startsWith('--') && f.includes('=') && !patterns.includes(f.slice(0, f.indexOf('=')))
      ? [f.slice(f.indexOf('=') + 1)]
      : [],
  );
  return [...rest, ...flagValues].every(ok);
}

const GLOB_CHARS = /[*?[]/;

/**
 * An argument glob whose every expansion starts like its text, so it can never become an option
 * or leave the directory its text names: text only (no $x, substitution or braces), a literal
 * first character that is not `-`, `+` or a `~user`/`~-` prefix, and no `..` nor any wildcard
 * segment starting with a dot (`.*` matches `..` where globskipdots is off).
 */
export function isPlainGlob(word: ShellWord): boolean {
  if (!word.glob || !word.parts.every((part) => part.kind === 'text')) return false;
  const { text } = word;
  if (text.search(GLOB_CHARS) < 1 || /^[-+]|^~[^/]|[{}]/.test(text)) return false;
  return text
    .split('/')
    .every((segment) => segment !== '..' && !(segment.startsWith('.') && GLOB_CHARS.test(segment)));
}

/**
 * `--name=GLOB` where `--name` is one of the rule's pattern options: every expansion is a file
 * name in the working directory that starts with `--name=`, so the same option again.
 */
function patternOptionGlob(word: ShellWord, rule: ReadOnlyRuleSpec): boolean {
  if (!word.glob || !word.parts.every((part) => part.kind === 'text')) return false;
  const equals = word.text.indexOf('=');
  const name = word.text.slice(0, equals);
  return equals > 2 && !GLOB_CHARS.test(name) && (rule.pattern_options ?? []).includes(name);
}

/** An argument the catalogue can judge from its text: a literal (not `~user`, `~-`, `~+`) or a plain glob. */
export function judgeableArgument(word: ShellWord): boolean {
  // The shell turns ~root, ~- and ~+ into directories the text does not name.
  if (word.literal) return !/^~[^/]/.test(word.text);
  return isPlainGlob(word);
}

/**
 * True when a glob may stand in `rule`'s arguments: it expands to any number of words, so never
 * where operands are counted (max_args) or picked by position (paths), nor for a tree read.
 */
function globsFit(rule: ReadOnlyRuleSpec, flags: readonly string[]): boolean {
  return (
    rule.max_args === undefined &&
    rule.paths === undefined &&
    rule.trees !== true &&
    !recurses(rule.binary, flags)
  );
}

/** True when the command only looks at a raw device's metadata (ls /dev/sda, not file -s /dev/sda). */
function deviceMetadataOnly(binary: string, flags: readonly string[]): boolean {
  const content = DEVICE_CONTENT_OPTIONS.get(binary) ?? [];
  // Both lists must agree: the guard's (what it lets name a disk) and the catalogue's.
  return (
    DEVICE_METADATA_COMMANDS.has(binary) &&
    DEVICE_NODE_READERS.has(binary) &&
    !flags.some((f) => isForbidden(f, content))
  );
}

/** The words a find -exec action hands each file as; any other word holding it is refused. */
const FOUND_FILE = '{}';

/**
 * The tool's own words and the commands its exec actions run (find -exec CMD ... {} + / ';'),
 * or null when an action is not closed, runs no command, or splices `{}` into another word.
 */
function execActions(
  args: readonly ShellWord[],
  actions: readonly string[],
): { own: ShellWord[]; runs: ShellWord[][] } | null {
  const own: ShellWord[] = [];
  const runs: ShellWord[][] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as ShellWord;
    own.push(word);
    if (!word.literal || !actions.includes(word.text)) continue;
    const end = args.findIndex(
      (w, j) =>
        j > i &&
        w.literal &&
        (w.text === ';' || (w.text === '+' && args[j - 1]?.text === FOUND_FILE)),
    );
    const run = args.slice(i + 1, end);
    if (end < 0 || run.length === 0) return null;
    if (run.some((w) => w.text.includes(FOUND_FILE) && w.text !== FOUND_FILE)) return null;
    // `{}` stays where it stands: `uniq {} OUT` has two operands, the second one written.
    runs.push(run);
    i = end;
  }
  return { own, runs };
}

/**
 * A command an exec action runs, as its own command; its `{}` is judged as a file in the
 * working directory (the files it stands for are below the tool's roots, judged as trees).
 */
function actionCommand(command: ShellCommand, words: readonly ShellWord[]): ShellCommand {
  const [name, ...args] = words;
  const binary = name?.literal === true && !name.text.includes('/') ? name.text : null;
  return { ...command, name: name ?? null, binary, args, redirects: [], wrappers: [] };
}

/** The rule `command` matches with these arguments, its exec actions' commands matching too. */
function ruleFor(
  command: ShellCommand,
  catalogue: ReadOnlyCatalogue,
  pathOk: PathCheck,
  rule: ReadOnlyRuleSpec,
): boolean {
  const binary = command.binary as string;
  let args = command.args;
  if (rule.exec_actions !== undefined) {
    const split = execActions(args, rule.exec_actions);
    if (split === null) return false;
    // A repository reader runs where find hands it a file (-execdir), not where it was cleared.
    const reads = (run: ShellWord[]): boolean => {
      const matched = matchCommand(actionCommand(command, run), catalogue, pathOk);
      return matched !== null && matched.repository === undefined;
    };
    if (!split.runs.every(reads)) return false;
    args = split.own;
  }
  if (!args.every((word) => judgeableArgument(word) || patternOptionGlob(word, rule))) return false;
  const { flags } = split(args);
  const globs = new Set(
    args.filter((a) => a.glob && !patternOptionGlob(a, rule)).map((a) => a.text),
  );
  if (globs.size > 0 && !globsFit(rule, flags)) return false;
  const deviceMetadata = deviceMetadataOnly(binary, flags);
  const opensInside = COMPARERS.has(binary);
  const check = (path: string, tree: boolean): boolean =>
    pathOk(path, {
      glob: globs.has(path),
      deviceMetadata,
      ...(tree ? { tree } : {}),
      ...(opensInside ? { opensInside } : {}),
    });
  return ruleMatches(rule, args, check);
}

/** git's words before its subcommand are all options that change no config and run nothing. */
function quietGlobals(words: readonly string[]): boolean {
  const sub = words.findIndex((word) => !word.startsWith('-'));
  return words.slice(0, sub < 0 ? words.length : sub).every((word) => GIT_QUIET_GLOBALS.has(word));
}

/** Directories only root writes: `/usr/bin/git` is the git a bare `git` finds, or a truer one. */
const SYSTEM_PROGRAM_DIRS = ['/usr/bin/', '/bin/', '/usr/sbin/', '/sbin/'];

function namesTheProgram(text: string, binary: string): boolean {
  return text === binary || SYSTEM_PROGRAM_DIRS.some((dir) => text === dir + binary);
}

function matchCommand(
  command: ShellCommand,
  catalogue: ReadOnlyCatalogue,
  pathOk: PathCheck,
): ReadOnlyRuleSpec | null {
  const { name, binary } = command;
  if (command.origin !== 'top' || command.declaration || command.assignments.length > 0)
    return null;
  // A bare name, or the program in a directory only root writes: ./ls or /tmp/x/cat is whatever
  // file sits there.
  if (name === null || binary === null || !name.literal || !namesTheProgram(name.text, binary))
    return null;
  if (!onlyQuietWrappers(command)) return null;
  for (const redirect of command.redirects) {
    if (redirect.writes || (redirect.target !== null && !redirect.target.literal)) return null;
    if (redirect.op === '<' && redirect.target !== null && !pathOk(redirect.target.text))
      return null;
  }
  const rules = catalogue.rules.get(binary) ?? [];
  const spelled = spellLongOptions(command, binary);
  const inRepository = (
    repository: NonNullable<PathUse['repository']>,
    how: Pick<PathUse, 'reshaped' | 'workTree'> = {},
  ): boolean => pathOk('.', { glob: false, deviceMetadata: false, repository, ...how });
  const words = spelled.args.map((word) => word.text);
  // What of the text the repository stores the command prints: file versions, or messages.
  const storedTextClear = (rule: ReadOnlyRuleSpec): boolean => {
    const subs = binary === 'git' ? (rule.subcommands ?? []) : [];
    if (rule.repository === 'objects' && subs.some((sub) => readsStoredText(sub, words)))
      return inRepository('stored-text', {
        workTree: subs.some((sub) => readsWorkTree(sub, words)),
      });
    const forms = subs.map((sub) => messageForm(sub, words));
    if (forms.includes('reshaped')) return inRepository('messages', { reshaped: true });
    return !forms.includes('whole') || inRepository('messages');
  };
  const repositoryClear = (rule: ReadOnlyRuleSpec): boolean =>
    (rule.repository === undefined || inRepository(rule.repository)) &&
    storedTextClear(rule) &&
    (binary !== 'git' || (quietGlobals(words) && inRepository('programs')));
  return (
    rules.find((rule) => ruleFor(spelled, catalogue, pathOk, rule) && repositoryClear(rule)) ?? null
  );
}

/** A command line both catalogues can judge: parsed cleanly, no substitution, no function, not empty. */
export function judgeableLine(parsed: ParsedShell): boolean {
  return (
    !parsed.errors &&
    !parsed.hasSubstitution &&
    parsed.functions.size === 0 &&
    parsed.commands.length > 0
  );
}

/** The rule(s) that make this whole command line read-only, or null (then the policy asks). */
export function matchReadOnly(
  parsed: ParsedShell,
  catalogue: ReadOnlyCatalogue,
  pathOk: PathCheck,
): { rule: string } | null {
  if (!judgeableLine(parsed)) return null;
  const names: string[] = [];
  for (const command of parsed.commands) {
    const rule = matchCommand(command, catalogue, pathOk);
    if (rule === null) return null;
    if (!names.includes(rule.name)) names.push(rule.name);
  }
  return { rule: names.join(', ') };
}

function catalogueOf(rules: readonly ReadOnlyRuleSpec[]): ReadOnlyCatalogue {
  const byBinary = new Map<string, ReadOnlyRuleSpec[]>();
  for (const rule of rules) byBinary.set(rule.binary, [...(byBinary.get(rule.binary) ?? []), rule]);
  return { rules: byBinary };
}

function checkExamples(rule: ReadOnlyRuleSpec, origin: string): void {
  // The rule alone for its program; the built-in rules for the commands its actions run.
  const alone = catalogueOf([rule, ...BUILT_IN_READ_ONLY.filter((r) => r.binary !== rule.binary)]);
  const everyPath = (): boolean => true;
  const fail = (example: string, problem: string): never => {
    throw new ConfigError(
      `${origin}: read-only rule "${rule.name}": example ${JSON.stringify(example)} ${problem}. Fix: correct the rule or the example.`,
      [`${origin}: rule "${rule.name}" example ${JSON.stringify(example)} ${problem}`],
    );
  };
  for (const example of rule.examples.match) {
    if (matchReadOnly(parseShell(example), alone, everyPath) === null)
      fail(example, 'should match but does not');
  }
  for (const example of rule.examples.no_match) {
    if (matchReadOnly(parseShell(example), alone, everyPath) !== null)
      fail(example, 'should not match but does');
  }
}

/**
 * Check the built-in rules against their examples (a drifted one is a ConfigError naming the rule
 * and the example). They cannot change at run time, so the tests check them, not every start.
 */
export function checkBuiltInReadOnlyExamples(): void {
  for (const rule of BUILT_IN_READ_ONLY) checkExamples(rule, 'built-in read-only catalogue');
}

/**
 * The built-in catalogue plus the operator's rules. The operator's rules' examples are checked;
 * a drifted one is a ConfigError naming the rule and the example. Needs initShellParser() awaited.
 */
export function loadCatalogue(extra: readonly ReadOnlyRuleConfig[]): ReadOnlyCatalogue {
  extra.forEach((rule, i) => checkExamples(rule, `approvals.read_only_catalogue.extra.${i}`));
  return catalogueOf([...BUILT_IN_READ_ONLY, ...extra]);
}
