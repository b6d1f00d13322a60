// The trees a shell line lists the names of, below its operands: `find ~ -name '*.gpg'`, `du -a`,
// `tree -a`, `ls -R`, `rg --files`. Custode lets them run without a card because its sandbox
// hides every protected store that exists, so they list nothing inside one; an agent that runs
// the line itself shows what ~/.password-store or ~/.gnupg holds. The gate asks the path oracle
// about each of these trees (gate.ts).
import type { ParsedShell, ShellCommand, ShellWord } from '../shell/parse.ts';

/** Whether a program lists every name below a directory, given its options. */
type Lists = (options: readonly string[]) => boolean;

const always: Lists = () => true;
const hasShort = (letter: string, options: readonly string[]): boolean =>
  options.some((option) => /^-[^-]/.test(option) && option.includes(letter));

/** Programs that list the names below a directory, and when they do (their options). */
const NAME_WALKERS: ReadonlyMap<string, Lists> = new Map<string, Lists>([
  ['find', always],
  // du prints every directory below its operand, unless it only sums them up (-s).
  ['du', (options) => !hasShort('s', options) && !options.includes('--summarize')],
  ['tree', always],
  ['fd', always],
  ['fdfind', always],
  ['ls', (options) => hasShort('R', options) || options.includes('--recursive')],
  ['rg', (options) => options.includes('--files')],
]);

/** find's starting points: the words before its first test, action or operator. */
function operandsOf(binary: string, args: readonly ShellWord[]): readonly ShellWord[] {
  if (binary === 'find') {
    const end = args.findIndex((word) => /^[-(!)]/.test(word.text) && word.text !== '-');
    const points = end === -1 ? args : args.slice(0, end);
    return points.filter((word) => !['-H', '-L', '-P'].includes(word.text));
  }
  return args.filter((word) => !word.text.startsWith('-'));
}

/**
 * The directories (as written, relative to the line's cwd) whose whole tree of names the line
 * lists; `null` for an operand known only at run time (a variable, a substitution, a glob).
 */
export function listedTrees(parsed: ParsedShell): (string | null)[] {
  return parsed.commands.flatMap((command: ShellCommand) => {
    const lists = command.binary === null ? undefined : NAME_WALKERS.get(command.binary);
    const options = command.args.map((word) => word.text).filter((text) => text.startsWith('-'));
    if (command.binary === null || lists === undefined || !lists(options)) return [];
    const operands = operandsOf(command.binary, command.args);
    if (operands.length === 0) return ['.'];
    return operands.map((word) => (word.literal ? word.text : null));
  });
}

/** Programs that print the names in a directory operand (one level) unless told not to (-d). */
const DIRECTORY_LISTERS: ReadonlySet<string> = new Set(['ls', 'dir', 'vdir']);

/**
 * The glob patterns (as written, relative to the line's cwd) whose matches the line may print by
 * name, one level: a directory an `ls` lists (`ls DIR`: `DIR/*`, with its dot names), and every
 * glob the shell expands (`echo notes/*`, `stat ~/Downloads/*`); `null` for a word known only at
 * run time. Whole trees are listedTrees'.
 */
export function listedNames(parsed: ParsedShell): (string | null)[] {
  return parsed.commands.flatMap((command: ShellCommand) => {
    const globs = command.args.filter((word) => word.glob).map((word) => word.text);
    const options = command.args.map((word) => word.text).filter((text) => text.startsWith('-'));
    if (command.binary === null || !DIRECTORY_LISTERS.has(command.binary) || hasShort('d', options))
      return globs;
    const operands = command.args.filter((word) => !word.text.startsWith('-') && !word.glob);
    const dirs = operands.length === 0 && globs.length === 0 ? ['.'] : operands;
    return [
      ...globs,
      ...dirs.flatMap((word) =>
        typeof word === 'string'
          ? [`${word}/*`, `${word}/.*`]
          : word.literal
            ? [`${word.text}/*`, `${word.text}/.*`]
            : [null],
      ),
    ];
  });
}
