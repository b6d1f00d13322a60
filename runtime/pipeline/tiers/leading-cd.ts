// `cd DIR && …` is how models write shell calls. In a line that is one `&&` chain, a leading
// `cd DIR` (or `pushd DIR`) that fails runs nothing after it, and one that succeeds leaves the
// rest in DIR: the rest is judged as if the model had passed `cwd: DIR`. The guard has already
// judged the whole line; the executor runs it unchanged (bash does the cd).
import { parseShell } from '../../shell/parse.ts';
import type { ParsedShell, ShellCommand, ShellWord } from '../../shell/types.ts';
import type { PathOracle } from '../paths.ts';
import { climbsThroughName } from '../scope-paths.ts';

/** A directory word that is what it spells, or null. */
export function plainDirectoryWord(word: ShellWord): string | null {
  if (!word.literal || word.glob) return null;
  // Options, `cd -` ($OLDPWD), `pushd +1` (the stack), `~user`, `~+`, `~-` and `..` after a
  // name are not what they spell.
  if (/^[-+]/.test(word.text) || /^~[^/]/.test(word.text) || climbsThroughName(word.text))
    return null;
  return word.text;
}

/** The one plain directory word of a bare `cd DIR` / `pushd DIR`, or null. */
function cdTarget(command: ShellCommand): string | null {
  if (command.binary !== 'cd' && command.binary !== 'pushd') return null;
  if (command.wrappers.length > 0 || command.redirects.length > 0) return null;
  if (command.assignments.length > 0 || command.args.length !== 1) return null;
  const [word] = command.args;
  return word === undefined ? null : plainDirectoryWord(word);
}

// File commands whose only use of the working directory is to resolve the names they are given.
const NAMES_ONLY: ReadonlySet<string> = new Set([
  'mkdir',
  'touch',
  'cp',
  'mv',
  'ls',
  'cat',
  'wc',
  'du',
  'stat',
]);

/** A word the working directory cannot change: a short-option cluster, or a path from `/` or `~/`. */
function rootedWord(word: ShellWord): boolean {
  return word.literal && (/^-[A-Za-z]+$/.test(word.text) || /^(?:\/|~\/)/.test(word.text));
}

// Filters of their stdin: with only options and counts they name no file at all.
const STDIN_FILTERS: ReadonlySet<string> = new Set(['head', 'tail', 'sort', 'uniq', 'wc', 'cat']);

/**
 * A filter of its stdin that names no file: short option clusters, a count attached (`-n5`,
 * `-3`) or after `-n`/`-c` (`head -n 5`); sort without -o (writes a file) or -T (a directory).
 * A bare number elsewhere would be a file name (`head 5`).
 */
export function stdinFilter(command: ShellCommand): boolean {
  const { binary, args } = command;
  if (binary === null || !STDIN_FILTERS.has(binary) || command.redirects.length > 0) return false;
  const option = binary === 'sort' ? /^-[A-SU-Za-np-z]*\d*$/ : /^-[A-Za-z]*\d*$/;
  return args.every(
    (arg, at) =>
      arg.literal &&
      (option.test(arg.text) ||
        (/^\d+$/.test(arg.text) && /^-[nc]$/.test(args[at - 1]?.text ?? ''))),
  );
}

/**
 * True when the command does the same from any working directory: a plain file command whose
 * every word is an option or a path from `/` or `~/`, at least one a path (`mkdir -p ~/backups`),
 * or a filter of its stdin that names no file (`head -5`, `tail -n 3`).
 */
export function placeIndependent(command: ShellCommand): boolean {
  const { binary } = command;
  if (binary === null || command.origin !== 'top' || command.wrappers.length > 0) return false;
  // A subshell or pipeline stage (scope) changes nothing for a command that names no relative path.
  if (command.assignments.length > 0) return false;
  if (stdinFilter(command)) return true;
  if (!command.redirects.every((r) => r.target !== null && rootedWord(r.target))) return false;
  return (
    NAMES_ONLY.has(binary) &&
    command.args.every(rootedWord) &&
    command.args.some((word) => !word.text.startsWith('-'))
  );
}

/** True when the element does the same from any working directory (placeIndependent). */
function sameFromAnywhere(element: string): boolean {
  const parsed = parseShell(element);
  if (parsed.errors || parsed.hasSubstitution || parsed.commands.length === 0) return false;
  return parsed.commands.every(placeIndependent);
}

/**
 * `A && cd DIR && B` as `cd DIR && A && B` when A does the same from any directory (above), so
 * a `cd` in the middle of a chain moves what follows it as a leading one does; null otherwise.
 */
function cdToFront(chain: readonly string[]): ParsedShell | null {
  const at = chain.findIndex((element) => /^(?:cd|pushd)\s/.test(element.trim()));
  if (at < 1 || !chain.slice(0, at).every(sameFromAnywhere)) return null;
  const moved = [chain[at] ?? '', ...chain.slice(0, at), ...chain.slice(at + 1)];
  return parseShell(moved.map((element) => element.trim()).join(' && '));
}

/** What the tiers judge: the line and where it runs, with leading `cd`s folded into the cwd. */
export interface JudgedLine {
  readonly shell: ParsedShell;
  readonly cwd: string;
}

/**
 * Fold every leading `cd DIR &&` of a `&&` chain, and one after elements that do the same from
 * any directory, into the cwd; the line as given otherwise.
 */
export function foldLeadingCd(
  shell: ParsedShell,
  cwd: string,
  paths: PathOracle,
  isDirectory: (path: string) => boolean,
): JudgedLine {
  let line: JudgedLine = { shell, cwd };
  // bash's cd is logical: after `cd LINK`, `cd ..` leaves LINK's own parent, not its target's.
  // The path bash holds is kept as spelled; each step is judged where it really leads.
  let logical = cwd;
  for (;;) {
    const given = line.shell.andChain;
    if (line.shell.errors || given === null || given.length < 2) return line;
    const chain = cdToFront(given)?.andChain ?? given;
    // Only a plain `cd DIR` moves the rest: `! cd DIR` runs the rest when the cd FAILED, and
    // `(cd DIR)` or `{ cd DIR; }`-style groups change nothing outside themselves.
    const text = (chain[0] ?? '').trim();
    const head = parseShell(text);
    const [only] = head.commands;
    const plain = /^(?:cd|pushd)\s/.test(text) && only !== undefined && only.scope.length === 0;
    const target = head.errors || head.commands.length !== 1 || !plain ? null : cdTarget(only);
    if (target === null) return line;
    const spelled = paths.absolute(target, logical);
    const dir = paths.real(spelled);
    if (!isDirectory(dir)) return line;
    line = { shell: parseShell(chain.slice(1).join(' && ')), cwd: dir };
    logical = spelled;
  }
}
