// Git in the agent's own shell starts what Custode's sandbox switches off for a call without a
// card (executors/shell-exec.ts): the program core.fsmonitor names, on any command that looks at
// the work tree, and the repository's hooks, on the commands that fire them. A repository that
// came with its own .git (an unpacked archive, a copied project) brings both, so a git line the
// gate would wave on asks when its repository has either.
import { dirname, join } from 'node:path';
import type { ParsedShell, ShellWord } from '../shell/types.ts';
import type { PathOracle } from '../pipeline/paths.ts';
import { GIT_QUIET_GLOBALS } from '../../constitution/read-only/git.ts';

/** Subcommands that fire a hook (pre-commit, post-checkout, pre-push, post-merge …). */
const FIRES_HOOKS: ReadonlySet<string> = new Set([
  'commit',
  'merge',
  'checkout',
  'switch',
  'rebase',
  'am',
  'push',
  'pull',
  'cherry-pick',
  'revert',
  'worktree',
  'clone',
  'reset',
  'gc',
]);

/** core.fsmonitor's values that start no program of the repository's (the built-in daemon). */
const NO_PROGRAM = /^(?:true|false|yes|no|on|off|1|0)?$/i;

/** Git's options before its subcommand that take a value, separate or after `=`. */
const VALUED = new Set([
  '-C',
  '-c',
  '--config-env',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--exec-path',
  '--attr-source',
  '--super-prefix',
  '--list-cmds',
]);
/** Git's options before its subcommand that take none. */
const FLAGS: ReadonlySet<string> = new Set([
  ...GIT_QUIET_GLOBALS,
  '--bare',
  '--no-lazy-fetch',
  '--html-path',
  '--man-path',
  '--info-path',
  '--help',
]);

/** Environment that moves git to another repository or adds config, as its options would. */
const MOVES_GIT =
  /^GIT_(?:DIR|WORK_TREE|COMMON_DIR|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|NAMESPACE|CONFIG\w*|EXTERNAL_DIFF|EXEC_PATH)$/;

/**
 * Where git runs (its -C, the repository --git-dir names, else `cwd`) and its subcommand, or null
 * when a word is unknown: an option git adds later may take the next word, which would then be
 * read as the subcommand.
 */
function gitCall(
  args: readonly ShellWord[],
  cwd: string,
  paths: PathOracle,
): { dir: string; sub: string } | null {
  let dir = cwd;
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i] as ShellWord;
    if (!word.literal) return null;
    if (!word.text.startsWith('-')) return { dir, sub: word.text };
    if (FLAGS.has(word.text)) continue;
    const equals = word.text.indexOf('=');
    const option = equals < 0 ? word.text : word.text.slice(0, equals);
    if (!VALUED.has(option) || (option === '-C' && equals >= 0)) return null;
    const value =
      equals < 0 ? args[(i += 1)] : { literal: true, text: word.text.slice(equals + 1) };
    if (value === undefined || !value.literal) return null;
    if (option === '-C' || option === '--git-dir') dir = paths.absolute(value.text, dir);
  }
  return null;
}

/** One git command of a line: where it may run, its subcommand and its words. */
export interface GitRun {
  readonly dir: string;
  readonly sub: string;
  readonly args: readonly ShellWord[];
}

/**
 * Every git command of a line, once for each directory it may run in: the session's `cwd` and
 * each directory a `cd` or `pushd` before it names (`cd ~/app && git show`), whatever joins them
 * (judging more places only asks more). Null when a git's words cannot be read.
 */
export function gitRuns(parsed: ParsedShell, cwd: string, paths: PathOracle): GitRun[] | null {
  const dirs = [paths.absolute(cwd)];
  const runs: GitRun[] = [];
  for (const command of parsed.commands) {
    const [target] = command.args;
    if ((command.binary === 'cd' || command.binary === 'pushd') && target?.literal === true) {
      dirs.push(paths.absolute(target.text, dirs.at(-1)));
      continue;
    }
    if (command.binary !== 'git') continue;
    // `GIT_DIR=… git log -p` reads another repository, `GIT_CONFIG_COUNT=…` is `-c` by another name.
    if (command.assignments.some(({ name }) => MOVES_GIT.test(name))) return null;
    for (const dir of dirs) {
      const call = gitCall(command.args, dir, paths);
      if (call === null) return null;
      runs.push({ ...call, args: command.args });
    }
  }
  return runs;
}

/** The hooks a repository in `dir` would run: files other than git's samples in its hooks dirs. */
function hasHooks(dir: string, config: string, paths: PathOracle): boolean {
  const dirs: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    if (paths.globMatches(join(at, '.git', 'hooks', '*')) !== null) {
      dirs.push(join(at, '.git', 'hooks'));
      const named = /^core\.hookspath=(.*)$/im.exec(config)?.[1]?.trim();
      if (named !== undefined && named !== '') dirs.push(paths.absolute(named, at));
      break;
    }
    if (at === '/') break;
  }
  return dirs.some((hooks) =>
    (paths.globMatches(join(hooks, '*')) ?? []).some((hook) => !hook.endsWith('.sample')),
  );
}

/** Why git in this line would start a program of its repository's on the host; null if none. */
export function gitOnHost(parsed: ParsedShell, cwd: string, paths: PathOracle): string | null {
  const runs = gitRuns(parsed, cwd, paths);
  if (runs === null) return 'the agent would run git with options Custode could not read';
  for (const run of runs) {
    const config = paths.gitConfig(run.dir) ?? '';
    const monitor = /^core\.fsmonitor=(.*)$/im.exec(config)?.[1]?.trim() ?? '';
    if (!NO_PROGRAM.test(monitor))
      return `git in ${run.dir} would start core.fsmonitor (${monitor}) on the host; Custode's sandbox switches it off`;
    if (FIRES_HOOKS.has(run.sub) && hasHooks(run.dir, config, paths))
      return `git ${run.sub} in ${run.dir} would run the repository's hooks on the host; Custode's sandbox switches them off`;
  }
  return null;
}
