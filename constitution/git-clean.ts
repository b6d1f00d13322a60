// `git clean` deletes every file git does not track (`-x`: ignored ones too, `-d`: whole
// directories) below where it runs, or below its pathspecs. Run over a home kept in git (a
// dotfiles repository ignoring `*`), it takes the home's contents. Where it deletes is the
// directory git runs in (`-C dir`, `--work-tree`, GIT_WORK_TREE) and the pathspecs in it; `:/`
// means the top of the work tree (git-clean(1), gitglossary(7) "pathspec").
import type { ShellCommand, ShellWord } from '../runtime/shell/types.ts';
import { literal, type ShellView } from './shell-view.ts';

// git's options before the subcommand that take a value as the next word (git(1)).
const GLOBAL_WITH_VALUE = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--exec-path',
  '--config-env',
]);
// git clean's options that take a value (git-clean(1)).
const CLEAN_WITH_VALUE = new Set(['-e', '--exclude']);
// A pathspec that starts at the top of the work tree: `:/x`, `:(top)x`.
const FROM_TOP = /^:(?:\/|\([^)]*\btop\b)/;

interface GitCall {
  readonly dirs: readonly ShellWord[];
  readonly workTree: ShellWord | null;
  readonly sub: string | null;
  readonly rest: readonly ShellWord[];
}

/** git's global options and subcommand. */
function gitCall(command: ShellCommand): GitCall {
  const dirs: ShellWord[] = [];
  let workTree: ShellWord | null =
    command.assignments.find((a) => a.name === 'GIT_WORK_TREE')?.value ?? null;
  const args = command.args;
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i] as ShellWord;
    const text = word.text;
    if (!text.startsWith('-')) return { dirs, workTree, sub: text, rest: args.slice(i + 1) };
    const next = args[i + 1];
    if (text.startsWith('--work-tree=')) workTree = literal(text.slice('--work-tree='.length));
    else if (GLOBAL_WITH_VALUE.has(text)) {
      if (text === '-C' && next !== undefined) dirs.push(next);
      if (text === '--work-tree' && next !== undefined) workTree = next;
      i += 1;
    }
  }
  return { dirs, workTree, sub: null, rest: [] };
}

/** The pathspecs of `git clean`, or null when it only shows what it would delete (-n). */
function cleanPathspecs(rest: readonly ShellWord[]): ShellWord[] | null {
  const pathspecs: ShellWord[] = [];
  let ended = false;
  for (let i = 0; i < rest.length; i += 1) {
    const word = rest[i] as ShellWord;
    const text = word.text;
    if (ended || !text.startsWith('-')) pathspecs.push(word);
    else if (text === '--') ended = true;
    else if (text === '--dry-run' || (/^-[a-zA-Z]+$/.test(text) && text.includes('n'))) return null;
    else if (CLEAN_WITH_VALUE.has(text)) i += 1;
  }
  return pathspecs;
}

/** The directory above `dir` (or itself) that holds a `.git`, as far as the view can read. */
function workTreeTop(dir: string, view: ShellView): string | null {
  for (let p = dir; p.startsWith('/'); p = p === '/' ? '' : p.slice(0, p.lastIndexOf('/')) || '/') {
    const git = p === '/' ? '/.git' : `${p}/.git`;
    if (view.fileText(literal(`${git}/HEAD`)) !== null || view.fileText(literal(git)) !== null)
      return p;
  }
  return null;
}

/** Where `git clean` deletes (absolute where known); empty when the command is no git clean. */
export function gitCleanTargets(command: ShellCommand, view: ShellView): string[] {
  if (command.binary !== 'git') return [];
  const call = gitCall(command);
  if (call.sub !== 'clean') return [];
  const pathspecs = cleanPathspecs(call.rest);
  if (pathspecs === null) return [];
  // A relative word is joined to the directories given; view.paths already joins it to where
  // the command runs, which -C and :/ change.
  const joinTo = (bases: readonly string[], word: ShellWord): string[] => {
    const values = view.paths(word);
    const relative = values.filter((p) => !p.startsWith('/'));
    if (relative.length === 0) return [...values];
    return relative.flatMap((p) => bases.flatMap((b) => view.paths(literal(`${b}/${p}`))));
  };
  let dirs: readonly string[] = view.workingDirs(command);
  for (const d of call.dirs) dirs = joinTo(dirs, d);
  const tops =
    call.workTree === null
      ? dirs.map((d) => workTreeTop(d, view) ?? d)
      : view.paths(call.workTree).filter((p) => p.startsWith('/'));
  if (pathspecs.length === 0) return [...(call.workTree === null ? dirs : tops)];
  return pathspecs.flatMap((spec) =>
    FROM_TOP.test(spec.text)
      ? joinTo(tops, literal(spec.text.replace(FROM_TOP, '').replace(/^\)/, '') || '.'))
      : joinTo(dirs, spec),
  );
}
