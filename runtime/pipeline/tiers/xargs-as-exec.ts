// `find src -name "*.js" | xargs wc -l` is `find src -name "*.js" -exec wc -l {} +` written
// with a pipe: xargs runs CMD on the names find prints. It is judged as that -exec (so CMD must
// be read-only and find's roots are read whole: placed and walked for protected places) and as
// CMD alone (xargs runs it once with no names when find prints none), when the names cannot
// change on the way: find prints them plainly (no -printf, -ls, -print0 without xargs -0), and,
// without -0, no name below the roots holds a blank, quote or backslash, which xargs would split
// or unquote into other paths. Other feeders print names below roots known from their words,
// each name as a path from the shell's directory: `grep -rl TODO src` (its path operands, or `.`),
// `git ls-files '*.js'` (`.`, its pathspecs below it), `ls -t logs/*.log` (a glob's directory, when it holds no
// directory whose entries ls would print bare; a file). Between feeder and xargs only filters
// that drop or reorder lines (`head -1`, `sort -r`). Such a line is judged as the feeder and the
// filters as written, plus `find ROOTS -exec CMD {} +` and CMD alone. Anything else keeps the
// line as written (it asks).
import { isAbsolute, relative } from 'node:path';
import type { ParsedShell, ShellCommand, ShellWord } from '../../shell/types.ts';
import type { PathOracle } from '../paths.ts';

// find actions that print otherwise than one name per line (or run, delete, write).
const FIND_ACTIONS =
  /^-(?:exec|execdir|ok|okdir|delete|print0|printf|fprint|fprint0|fprintf|ls|fls)$/;
// find's options before its roots (-L follows links, -D/-O take values): not judged here.
const FIND_LEADING = /^-[HLPDO]/;
const XARGS_OPTIONS = /^(?:-r|--no-run-if-empty|-0|--null|-[nL]\d+)$/;

function word(text: string): ShellWord {
  return { text, literal: true, glob: false, parts: [{ kind: 'text', text }] };
}

/** Quiet enough: no redirect that opens or writes anything (2>/dev/null and 2>&1 pass). */
function quiet(command: ShellCommand): boolean {
  return (
    command.origin === 'top' &&
    !command.background &&
    command.assignments.length === 0 &&
    command.redirects.every((r) => !r.writes && !r.op.includes('<'))
  );
}

/** The xargs options of a command the parser found behind `xargs`, or null when it is not that. */
function xargsOptions(command: ShellCommand): readonly string[] | null {
  const [wrapper, ...others] = command.wrappers;
  if (wrapper === undefined || others.length > 0 || wrapper.name !== 'xargs') return null;
  const options = wrapper.args.map((w) => w.text);
  return wrapper.args.every((w) => w.literal) && options.every((o) => XARGS_OPTIONS.test(o))
    ? options
    : null;
}

/** find's roots: its words before the first expression word; `.` when none. */
function rootsOf(args: readonly ShellWord[]): readonly string[] {
  const end = args.findIndex((w) => /^[-(!]/.test(w.text));
  const roots = (end < 0 ? args : args.slice(0, end)).map((w) => w.text);
  return roots.length === 0 ? ['.'] : roots;
}

// Options of the filters that only drop or reorder whole lines. Not `-c` (a byte cut or a count
// in front), `-z`, `-v` (a header line), nor cat or wc: each would make names of other paths.
const LINE_FILTERS: ReadonlyMap<string, RegExp> = new Map([
  ['head', /^-(?:n?\d+|n)$/],
  ['tail', /^-(?:n?\d+|n)$/],
  ['sort', /^-[bdfgiMnrRsuV]+$/],
  ['uniq', /^-[diuD]+$/],
]);

/** A filter between feeder and xargs that keeps each name whole (`head -1`, `sort -r`). */
function keepsNames(command: ShellCommand): boolean {
  const option = command.binary === null ? undefined : LINE_FILTERS.get(command.binary);
  if (option === undefined || command.wrappers.length > 0) return false;
  return command.args.every(
    (arg, at) =>
      arg.literal &&
      (option.test(arg.text) || (/^\d+$/.test(arg.text) && command.args[at - 1]?.text === '-n')),
  );
}

/** What the feeders need to know of the file system. */
export interface FeederListing {
  readonly namesIn: (dir: string) => readonly string[] | null;
  readonly isDirectory: (path: string) => boolean;
}

/** The directory a glob word's matches are in (its text before the last `/`), or null. */
function globDirectory(word: ShellWord): string | null {
  const cut = word.text.lastIndexOf('/');
  const dir = cut < 0 ? '.' : word.text.slice(0, cut) || '/';
  return /[*?[\]\\]/.test(dir) ? null : dir;
}

/** Root words of a grep that prints file names (-l/-L, no pattern or file options), or null. */
function grepRoots(args: readonly ShellWord[]): string[] | null {
  let recursive = false;
  let names = false;
  const operands: ShellWord[] = [];
  for (const arg of args) {
    if (/^--(?:include|exclude|exclude-dir)=/.test(arg.text)) continue;
    if (/^-[A-Za-z]+$/.test(arg.text)) {
      if (/[^rRlLinwsEFxvHhI]/.test(arg.text.slice(1))) return null;
      recursive ||= /[rR]/.test(arg.text);
      names ||= /[lL]/.test(arg.text);
      continue;
    }
    if (arg.text.startsWith('-')) return null;
    operands.push(arg);
  }
  // The first operand is the pattern.
  const [, ...paths] = operands;
  if (!names || operands.length === 0) return null;
  if (paths.length === 0) return recursive ? ['.'] : null;
  const roots = paths.map((word) => (word.glob ? globDirectory(word) : word.text));
  return roots.every((root): root is string => root !== null) ? roots : null;
}

/** `ls` with options that only order names, of files or globs it prints as given; or null. */
function lsRoots(
  args: readonly ShellWord[],
  cwd: string,
  paths: PathOracle,
  listing: FeederListing,
): string[] | null {
  const operands = args.filter((arg) => !/^-[1trSXUv]+$/.test(arg.text));
  if (operands.length === 0 || operands.some((arg) => arg.text.startsWith('-'))) return null;
  const roots: string[] = [];
  for (const word of operands) {
    const dir = word.glob ? globDirectory(word) : null;
    if (!word.glob) {
      // A directory's entries are printed bare, names from another directory than the shell's.
      if (listing.isDirectory(paths.absolute(word.text, cwd))) return null;
      roots.push(word.text);
      continue;
    }
    if (dir === null) return null;
    const absolute = paths.absolute(dir, cwd);
    const names = listing.namesIn(absolute);
    if (names === null || names.some((name) => listing.isDirectory(`${absolute}/${name}`)))
      return null;
    roots.push(dir);
  }
  return roots;
}

/** The roots whose names the feeder prints, each a path from the shell's directory; or null. */
function feederRoots(
  feeder: ShellCommand,
  cwd: string,
  paths: PathOracle,
  listing: FeederListing,
): string[] | null {
  if (!quiet(feeder) || feeder.wrappers.length > 0) return null;
  const { args } = feeder;
  if (!args.every((w) => w.literal || w.glob)) return null;
  if (feeder.binary === 'grep') return grepRoots(args);
  if (feeder.binary === 'ls') return lsRoots(args, cwd, paths, listing);
  // The index's paths may pass through a directory since replaced by a link: find would not.
  if (feeder.binary === 'git' && args[0]?.text === 'ls-files')
    return args.slice(1).every((w) => belowHere(w.text, cwd, paths)) &&
      paths.linkedDirectoryFree(cwd)
      ? ['.']
      : null;
  return null;
}

/**
 * A git pathspec that names only files at or below the shell's directory: no option, no magic
 * (`:/`, `:(top)` name the whole work tree), and neither absolute nor climbing with `..` (git
 * prints such names as `../x`, below no root the decision walked).
 */
function belowHere(pathspec: string, cwd: string, paths: PathOracle): boolean {
  if (/^[-:~]/.test(pathspec) || isAbsolute(pathspec)) return false;
  return !relative(cwd, paths.absolute(pathspec, cwd)).startsWith('..');
}

/** The line judged as find -exec plus CMD alone, or as given when it is not that shape. */
export function judgeXargsAsExec(
  shell: ParsedShell,
  cwd: string,
  paths: PathOracle,
  listing: FeederListing,
): ParsedShell {
  const xargs = shell.commands.at(-1);
  const [first] = shell.commands;
  if (shell.errors || shell.hasSubstitution || shell.commands.length < 2) return shell;
  if (first === undefined || xargs === undefined || xargs.name === null) return shell;
  const options = xargsOptions(xargs);
  if (options === null || !quiet(xargs)) return shell;
  const { length } = shell.commands;
  const inOnePipeline = shell.commands.every(
    (command, stage) =>
      command.pipeline.id === first.pipeline.id &&
      command.pipeline.stage === stage &&
      command.pipeline.length === length,
  );
  if (!inOnePipeline || !xargs.args.every((w) => w.literal)) return shell;
  if (xargs.name.text.includes('/') || !xargs.name.literal) return shell;
  const run = [xargs.name, ...xargs.args];
  const alone: ShellCommand = {
    ...xargs,
    wrappers: [],
    pipeline: { id: first.pipeline.id + 1, stage: 0, length: 1 },
  };
  const null0 = options.includes('-0') || options.includes('--null');
  if (first.binary === 'find' && length === 2) {
    const asExec = findAsExec(first, run, null0, cwd, paths);
    return asExec === null ? shell : { ...shell, commands: [asExec, alone], andChain: null };
  }
  const middle = shell.commands.slice(1, -1);
  if (null0 || !middle.every((command) => quiet(command) && keepsNames(command))) return shell;
  const roots = feederRoots(first, cwd, paths, listing);
  if (roots === null || !roots.every((root) => paths.namesSplitFree(paths.absolute(root, cwd))))
    return shell;
  // The same roots as paths below the shell's directory where they are (a tree is judged by
  // that spelling, read-only.ts); anywhere else as given.
  const below = roots.map((root) => {
    const path = relative(cwd, paths.absolute(root, cwd));
    return path === '' ? '.' : path.startsWith('..') || isAbsolute(path) ? root : path;
  });
  const kept = shell.commands
    .slice(0, -1)
    .map((command) => ({ ...command, pipeline: { ...command.pipeline, length: length - 1 } }));
  const asExec: ShellCommand = {
    ...first,
    name: word('find'),
    binary: 'find',
    args: [...below.map(word), word('-exec'), ...run, word('{}'), word('+')],
    redirects: [],
    pipeline: { id: first.pipeline.id + 2, stage: 0, length: 1 },
  };
  return { ...shell, commands: [...kept, asExec, alone], andChain: null };
}

/** find's own command as its -exec of `run`, or null when its names could change on the way. */
function findAsExec(
  find: ShellCommand,
  run: readonly ShellWord[],
  null0: boolean,
  cwd: string,
  paths: PathOracle,
): ShellCommand | null {
  if (!quiet(find) || find.wrappers.length > 0) return null;
  // Every word literal: a glob among find's roots would name trees the name check never walks.
  if (!find.args.every((w) => w.literal)) return null;
  const texts = find.args.map((w) => w.text);
  if (texts.some((t) => FIND_LEADING.test(t))) return null;
  // -print0 only with xargs -0, and -0 only with -print0: else the names are cut wrong.
  if (null0 !== texts.includes('-print0')) return null;
  if (texts.some((t) => FIND_ACTIONS.test(t) && t !== '-print0')) return null;
  if (
    !null0 &&
    !rootsOf(find.args).every((root) => paths.namesSplitFree(paths.absolute(root, cwd)))
  )
    return null;
  const expression = find.args.filter((w) => w.text !== '-print' && w.text !== '-print0');
  return {
    ...find,
    args: [...expression, word('-exec'), ...run, word('{}'), word('+')],
    pipeline: { ...find.pipeline, length: 1 },
  };
}
