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

/** What the tiers judge: the line and where it runs, with leading `cd`s folded into the cwd. */
export interface JudgedLine {
  readonly shell: ParsedShell;
  readonly cwd: string;
}

/** Fold every leading `cd DIR &&` of a `&&` chain into the cwd; the line as given otherwise. */
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
    const chain = line.shell.andChain;
    if (line.shell.errors || chain === null || chain.length < 2) return line;
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
