// awk printing fields only: `awk [-F sep] '[pattern] { print $1, $3 }' files`. awk is a full
// language (system(), print > file, print | "cmd", getline < file), so the program must fit a
// grammar too small to hold any of them: fields, NR and NF, plain strings, one print.
import type { ReadOnlyRuleSpec } from './spec.ts';

// One printed item: a field ($3, $NF), a counter, or a string with no escapes.
const ITEM = String.raw`(?:\$(?:\d+|NF)|NR|NF|"[^"\\]*")`;
// A line filter: a regex with no slash or backslash inside, or NR/NF compared with a number.
const PATTERN = String.raw`(?:/[^/\\\n]*/|(?:NR|NF)\s*(?:==|!=|<=|>=|<|>)\s*\d+)`;
const PROGRAM = new RegExp(
  String.raw`^\s*(?:${PATTERN}\s*)?\{\s*print(?:\s+${ITEM}(?:\s*,\s*${ITEM})*)?\s*;?\s*\}\s*$`,
);

// A total kept per line and printed at the end: `NR>1 {s+=$2} END {print s}`, `{n++} END {print n}`.
// Lower-case names only: awk's own variables (ENVIRON, PROCINFO ...) are upper-case.
const NAME = String.raw`[a-z_][a-z0-9_]*`;
const ACCUMULATE = String.raw`${NAME}\s*(?:\+=\s*\$(?:\d+|NF)|\+\+)`;
const END_ITEM = String.raw`(?:${ITEM}|${NAME})`;
const TOTAL_PROGRAM = new RegExp(
  String.raw`^\s*(?:${PATTERN}\s*)?\{\s*${ACCUMULATE}(?:\s*;\s*${ACCUMULATE})*\s*;?\s*\}\s*END\s*\{\s*print(?:\s+${END_ITEM}(?:\s*,\s*${END_ITEM})*)?\s*;?\s*\}\s*$`,
);

/**
 * True when an awk program is one `[pattern] { print items }`, or keeps totals and prints them at
 * the END, with nothing that writes or runs.
 */
export function isAwkPrintProgram(program: string): boolean {
  return PROGRAM.test(program) || TOTAL_PROGRAM.test(program);
}

/** The files of a print-only awk call, or null. */
function awkPrintPaths(args: readonly string[]): readonly string[] | null {
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] ?? '';
    if (operands.length > 0 || word === '-' || !word.startsWith('-')) operands.push(word);
    else if (word === '-F') {
      if (args[++i] === undefined) return null;
    } else if (!word.startsWith('-F')) return null;
  }
  const [program, ...files] = operands;
  // An operand with `=` is a variable assignment to awk, not a file.
  if (program === undefined || files.some((f) => f.includes('='))) return null;
  return isAwkPrintProgram(program) ? files : null;
}

/** awk printing fields of its input. */
export const AWK_PRINT: ReadOnlyRuleSpec = {
  name: 'awk print',
  binary: 'awk',
  paths: awkPrintPaths,
  examples: {
    match: [
      "awk -F, '{print $1}' data.csv",
      "awk '/ERROR/ { print NR, $0 }' app.log",
      "awk -F, 'NR>1 {s+=$2} END {print s}' budget.csv",
      "awk '/ERROR/ {n++} END {print n}' app.log",
    ],
    no_match: [
      'awk \'{print $1 > "out.txt"}\' data.csv',
      'awk \'{print | "sh"}\' data.csv',
      'awk \'BEGIN { system("id") }\'',
      'awk -f prog.awk data.csv',
      'awk \'{s+=$2} END {print ENVIRON["HOME"]}\' data.csv',
      'awk \'{s+=$2} END {print s > "out.txt"}\' data.csv',
      'awk \'{s+=$2} END {system("id")}\' data.csv',
    ],
  },
};
