// `git -C DIR status` runs in DIR, as `cd DIR && …` does: a command line whose every git or make
// carries the same `-C DIR`, its other commands doing the same from any directory (`mv /a /b &&
// git -C DIR status`, `git -C DIR add f && git -C DIR commit -m m`, `make -C DIR -n build`), is
// judged without the options, in DIR, whatever joins them (`&&`, `;`, a pipe: each program
// changes directory itself before it reads anything). `make -C DIR` runs DIR's Makefile, project
// code judged by where it lives: the runner rule judges it in DIR exactly as `cd DIR && make`.
// The guard has already judged the whole line; the executor runs it unchanged (the program
// changes directory itself, and fails when DIR does not exist).
import type { ParsedShell, ShellCommand, ShellRedirect } from '../../shell/types.ts';
import type { PathOracle } from '../paths.ts';
import type { JudgedLine } from './leading-cd.ts';
import { placeIndependent, plainDirectoryWord } from './leading-cd.ts';

/** Programs whose leading option names the directory they run in. */
const DIRECTORY_OPTIONS: ReadonlyMap<string, string> = new Map([
  ['git', '-C'],
  ['make', '-C'],
]);

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

/**
 * A line whose every command with a directory option leads to the same directory, the others
 * doing the same from anywhere, judged without the options in that directory; else as given.
 */
export function foldDirectoryOption(
  line: JudgedLine,
  paths: PathOracle,
  isDirectory: (path: string) => boolean,
): JudgedLine {
  const { shell } = line;
  if (shell.errors || shell.hasSubstitution || shell.commands.length === 0) return line;
  let dir: string | null = null;
  const commands: ShellCommand[] = [];
  for (const command of shell.commands) {
    const folded = withoutDirectoryOptions(command, line.cwd, paths, isDirectory);
    if (folded === null) {
      if (!placeIndependent(command)) return line;
      commands.push(command);
      continue;
    }
    if (dir !== null && folded.cwd !== dir) return line;
    dir = folded.cwd;
    commands.push(folded.command);
  }
  if (dir === null) return line;
  const judged: ParsedShell = {
    ...shell,
    commands,
    andChain: shell.commands.length === 1 ? null : shell.andChain,
  };
  return { shell: judged, cwd: dir };
}
