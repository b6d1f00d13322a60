// `git -C DIR status` runs in DIR, as `cd DIR && …` does: a command line that is that one
// command is judged as the same command without the option, in DIR. (`make -C DIR` would run
// DIR's Makefile, project code judged by where it lives: it stays a card.) The guard
// has already judged the whole line; the executor runs it unchanged (the program changes
// directory itself, and fails when DIR does not exist).
import type { ParsedShell, ShellCommand, ShellRedirect } from '../../shell/types.ts';
import type { PathOracle } from '../paths.ts';
import type { JudgedLine } from './leading-cd.ts';
import { plainDirectoryWord } from './leading-cd.ts';

/** Programs whose leading option names the directory they run in. */
const DIRECTORY_OPTIONS: ReadonlyMap<string, string> = new Map([['git', '-C']]);

/**
 * The shell opens a redirection's file where the shell runs, not in the program's DIR:
 * `git -C notes log > notes/todo.md` writes ~/notes/todo.md. A line with one that names a
 * relative file is not folded (a path from / or ~ means the same in either place).
 */
function namesFileFromShell(redirect: ShellRedirect): boolean {
  const { target } = redirect;
  if (target === null || redirect.op === '<<<') return false;
  if ((redirect.op === '>&' || redirect.op === '<&') && /^(?:\d+|-)$/.test(target.text))
    return false;
  return !(target.literal && /^(?:\/|~\/)/.test(target.text));
}

/** The command without its leading directory options, and the directory they lead to; or null. */
function withoutDirectoryOptions(
  command: ShellCommand,
  cwd: string,
  paths: PathOracle,
  isDirectory: (path: string) => boolean,
): { command: ShellCommand; cwd: string } | null {
  const option = command.binary === null ? undefined : DIRECTORY_OPTIONS.get(command.binary);
  if (option === undefined || command.redirects.some(namesFileFromShell)) return null;
  let dir = cwd;
  let at = 0;
  // Each -C is relative to the one before it.
  while (command.args[at]?.text === option && command.args[at]?.literal === true) {
    const word = command.args[at + 1];
    const target = word === undefined ? null : plainDirectoryWord(word);
    if (target === null) return null;
    dir = paths.real(paths.absolute(target, dir));
    if (!isDirectory(dir)) return null;
    at += 2;
  }
  return at === 0 ? null : { command: { ...command, args: command.args.slice(at) }, cwd: dir };
}

/** A line that is one such command, judged without the option in its directory; else as given. */
export function foldDirectoryOption(
  line: JudgedLine,
  paths: PathOracle,
  isDirectory: (path: string) => boolean,
): JudgedLine {
  const { shell } = line;
  const [only] = shell.commands;
  if (shell.errors || shell.commands.length !== 1 || only === undefined) return line;
  const folded = withoutDirectoryOptions(only, line.cwd, paths, isDirectory);
  if (folded === null) return line;
  const judged: ParsedShell = { ...shell, commands: [folded.command], andChain: null };
  return { shell: judged, cwd: folded.cwd };
}
