// `sed -i 's/old/new/g' FILE` and `perl -pi -e 's/old/new/' FILE`: the shell twin of an fs_edit,
// judged by the same question (files.ts restorableFile): every file it rewrites is tracked and
// unmodified in its git work tree, inside roots.write, not hidden or protected, so git can give
// it back; and the script only substitutes text (substitution-script.ts), never runs a command
// or writes another file. The executor asks git again right before the run.
import { dirname, join } from 'node:path';
import type { ShellCommand } from '../../shell/types.ts';
import type { WorkspaceDecision, WorkspaceScope } from '../workspace/policy.ts';
import {
  namedPath,
  RESTORABLE,
  restorableFile,
  workspaceAllow,
  type TrackedClean,
} from './files.ts';
import { isPerlSubstitution, isSedSubstitution } from './substitution-script.ts';

/** The script and the files of an in-place edit, as its words spell them. */
interface InPlaceEdit {
  readonly scripts: readonly string[];
  readonly files: readonly string[];
}

/**
 * sed with -i (no backup suffix: `-i.bak` would write FILE.bak over whatever is there), -E or
 * -r, and scripts given by -e or as the first operand; or null.
 */
function sedEdit(words: readonly string[]): InPlaceEdit | null {
  const scripts: string[] = [];
  const operands: string[] = [];
  let inPlace = false;
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] as string;
    if (word === '-e' && words[i + 1] !== undefined) {
      scripts.push(words[i + 1] as string);
      i += 1;
    } else if (/^-[Er]*i[Er]*$/.test(word) && word.endsWith('i')) inPlace = true;
    else if (word === '--in-place') inPlace = true;
    else if (/^-[Er]+$/.test(word) || word === '--regexp-extended') continue;
    else if (word.startsWith('-')) return null;
    else operands.push(word);
  }
  if (!inPlace) return null;
  const [first, ...rest] = operands;
  if (scripts.length === 0 && first !== undefined) return { scripts: [first], files: rest };
  return { scripts, files: operands };
}

/** perl with -p and -i (no suffix: `-pie` is -i with the suffix `e`) and one -e script; or null. */
function perlEdit(words: readonly string[]): InPlaceEdit | null {
  const scripts: string[] = [];
  const files: string[] = [];
  const flags = new Set<string>();
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] as string;
    if ((word === '-e' || word === '-pe') && words[i + 1] !== undefined) {
      if (word === '-pe') flags.add('p');
      scripts.push(words[i + 1] as string);
      i += 1;
    } else if (word === '-p' || word === '-i' || word === '-pi')
      for (const flag of word.slice(1)) flags.add(flag);
    else if (word.startsWith('-')) return null;
    else files.push(word);
  }
  return flags.has('p') && flags.has('i') && scripts.length === 1 ? { scripts, files } : null;
}

/** The in-place edit a command spells with a script that only substitutes, or null. */
function inPlaceEdit(command: ShellCommand): InPlaceEdit | null {
  if (command.redirects.length > 0 || command.assignments.length > 0) return null;
  if (command.wrappers.length > 0 || !command.args.every((word) => word.literal)) return null;
  const words = command.args.map((word) => word.text);
  const edit =
    command.binary === 'sed' ? sedEdit(words) : command.binary === 'perl' ? perlEdit(words) : null;
  if (edit === null || edit.files.length === 0) return null;
  const plain = command.binary === 'sed' ? isSedSubstitution : isPerlSubstitution;
  return edit.scripts.every(plain) ? edit : null;
}

/**
 * The workspace decision for a line that is one in-place substitution of files git can give
 * back, or null (it asks). A file named through a link asks: sed and perl replace the link
 * with a plain file, in a directory the decision did not judge.
 */
export async function inPlaceEditDecision(
  commands: readonly ShellCommand[],
  scope: WorkspaceScope,
  trackedClean: TrackedClean,
): Promise<WorkspaceDecision | null> {
  const [command, ...others] = commands;
  if (command === undefined || others.length > 0) return null;
  const edit = inPlaceEdit(command);
  if (edit === null) return null;
  const written: string[] = [];
  for (const word of edit.files) {
    const absolute = namedPath(word, scope);
    if (absolute === null || !scope.entryExists(absolute)) return null;
    if (scope.paths.real(absolute) !== absolute) return null;
    const real = await restorableFile(absolute, scope, trackedClean);
    if (real === null) return null;
    written.push(real);
  }
  const dirs = [...new Set(written.map((path) => dirname(path)))];
  const decision = workspaceAllow(`${command.binary ?? ''} -i: ${RESTORABLE}`, dirs, written, true);
  // A file at a work tree's top makes the top writable: its history stays read-only.
  const histories = dirs.map((dir) => join(dir, '.git')).filter((git) => scope.isDirectory(git));
  return { ...decision, readOnlyWithin: histories };
}
