// Operands whose meaning is not their spelling: when a program is given a directory where it
// expects a file, it opens a file inside it. `diff /etc shadow` compares shadow with
// /etc/shadow; `cp x ~/.kube` writes ~/.kube/x; `tar -C /etc -c shadow` reads /etc/shadow.
// The guard judges each such pair as the path it opens, without asking the disk which
// operand is a directory: any of them may be.
import type { ShellCommand, ShellWord } from '../runtime/shell/types.ts';
import { operands, optionValues } from './command-effects.ts';

/** A directory operand and a name the program opens inside it. */
export interface OpenedInside {
  readonly dir: ShellWord;
  readonly name: ShellWord;
  /** The name is a path below the directory (tar members), not just its last segment. */
  readonly whole: boolean;
}

// Programs that compare files and, given a directory, compare against the file of the same name;
// given two directories, they compare every file in both (diff -N prints one missing in the other).
export const COMPARERS: ReadonlySet<string> = new Set([
  'diff',
  'cmp',
  'diff3',
  'sdiff',
  'colordiff',
  'wdiff',
  'vimdiff',
]);
// Programs whose last operand (or -t DIR) is where the others land, under their own names.
const PLACERS: ReadonlySet<string> = new Set(['cp', 'mv', 'install', 'ln', 'rsync', 'scp']);

function pairs(
  dirs: readonly ShellWord[],
  names: readonly ShellWord[],
  whole: boolean,
): OpenedInside[] {
  return dirs.flatMap((dir) =>
    names.filter((name) => name !== dir).map((name) => ({ dir, name, whole })),
  );
}

/** Every (directory, name) pair a command may open as directory/name. */
export function openedInside(command: ShellCommand): OpenedInside[] {
  const args = command.args;
  const ops = operands(args);
  const b = command.binary;
  if (b === null) return [];
  if (COMPARERS.has(b)) {
    // --from-file=X / --to-file=X compare every operand with X (X/name when X is a directory).
    const all = [...ops, ...optionValues(args, [], ['--from-file', '--to-file'])];
    return pairs(all, all, false);
  }
  if (PLACERS.has(b)) {
    const targets = optionValues(args, ['-t'], ['--target-directory']);
    if (targets.length > 0) return pairs(targets, ops, false);
    return ops.length >= 2 ? pairs(ops.slice(-1), ops.slice(0, -1), false) : [];
  }
  if (b === 'tar' || b === 'bsdtar') {
    const dirs = optionValues(args, ['-C'], ['--directory']);
    return pairs(dirs, ops, true);
  }
  return [];
}
