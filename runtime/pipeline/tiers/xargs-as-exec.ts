// `find src -name "*.js" | xargs wc -l` is `find src -name "*.js" -exec wc -l {} +` written
// with a pipe: xargs runs CMD on the names find prints. It is judged as that -exec (so CMD must
// be read-only and find's roots are read whole: placed and walked for protected places) and as
// CMD alone (xargs runs it once with no names when find prints none), when the names cannot
// change on the way: find prints them plainly (no -printf, -ls, -print0 without xargs -0), and,
// without -0, no name below the roots holds a blank, quote or backslash, which xargs would split
// or unquote into other paths. Anything else keeps the line as written (it asks).
import type { ParsedShell, ShellCommand, ShellWord } from '../../shell/types.ts';
import type { PathOracle } from '../paths.ts';

// find actions that print otherwise than one name per line (or run, delete, write).
const FIND_ACTIONS =
  /^-(?:exec|execdir|ok|okdir|delete|print0|printf|fprint|fprint0|fprintf|ls|fls)$/;
// find's options before its roots (-L follows links, -D/-O take values): not judged here.
const FIND_LEADING = /^-[HLPDO]/;
const XARGS_OPTIONS = new Set(['-r', '--no-run-if-empty', '-0', '--null']);

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
  return wrapper.args.every((w) => w.literal) && options.every((o) => XARGS_OPTIONS.has(o))
    ? options
    : null;
}

/** find's roots: its words before the first expression word; `.` when none. */
function rootsOf(args: readonly ShellWord[]): readonly string[] {
  const end = args.findIndex((w) => /^[-(!]/.test(w.text));
  const roots = (end < 0 ? args : args.slice(0, end)).map((w) => w.text);
  return roots.length === 0 ? ['.'] : roots;
}

/** The line judged as find -exec plus CMD alone, or as given when it is not that shape. */
export function judgeXargsAsExec(shell: ParsedShell, cwd: string, paths: PathOracle): ParsedShell {
  const [find, xargs] = shell.commands;
  if (shell.errors || shell.hasSubstitution || shell.commands.length !== 2) return shell;
  if (find === undefined || xargs === undefined || xargs.name === null) return shell;
  const options = xargsOptions(xargs);
  if (find.binary !== 'find' || options === null || !quiet(find) || !quiet(xargs)) return shell;
  if (find.wrappers.length > 0 || find.pipeline.id !== xargs.pipeline.id) return shell;
  if (find.pipeline.length !== 2 || xargs.pipeline.stage !== 1) return shell;
  // Every word literal: a glob among find's roots would name trees the name check never walks.
  if (!find.args.every((w) => w.literal) || !xargs.args.every((w) => w.literal)) return shell;
  if (xargs.name.text.includes('/') || !xargs.name.literal) return shell;
  const null0 = options.includes('-0') || options.includes('--null');
  const run = [xargs.name, ...xargs.args];
  const texts = find.args.map((w) => w.text);
  if (texts.some((t) => FIND_LEADING.test(t))) return shell;
  // -print0 only with xargs -0, and -0 only with -print0: else the names are cut wrong.
  if (null0 !== texts.includes('-print0')) return shell;
  if (texts.some((t) => FIND_ACTIONS.test(t) && t !== '-print0')) return shell;
  if (
    !null0 &&
    !rootsOf(find.args).every((root) => paths.namesSplitFree(paths.absolute(root, cwd)))
  )
    return shell;
  const expression = find.args.filter((w) => w.text !== '-print' && w.text !== '-print0');
  const asExec: ShellCommand = {
    ...find,
    args: [...expression, word('-exec'), ...run, word('{}'), word('+')],
    pipeline: { ...find.pipeline, length: 1 },
  };
  const alone: ShellCommand = {
    ...xargs,
    wrappers: [],
    pipeline: { id: find.pipeline.id + 1, stage: 0, length: 1 },
  };
  return { ...shell, commands: [asExec, alone], andChain: null };
}
