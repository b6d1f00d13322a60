// A GNU program reads any unambiguous prefix of a long option as that option (getopt_long):
// `date --fil=.env` is `date --file=.env`. The catalogue's rules spell options in full, so a word
// is spelled out first, as the program will read it. Pure.
import type { ShellCommand } from '../../runtime/shell/types.ts';
import { GNU_LONG_OPTIONS } from './gnu-long-options.ts';

const byProgram = new Map(
  Object.entries(GNU_LONG_OPTIONS).map(([program, names]) => [program, names.split(' ')]),
);

/**
 * `word` as `program` reads it: a long option given by a prefix of exactly one of its options,
 * spelled in full (its `=value` kept); any other word as it is. A prefix of several is an error
 * to the program, and is left as written.
 */
export function spelledOut(program: string, word: string): string {
  const names = byProgram.get(program);
  if (names === undefined || !/^--[^-=]/.test(word)) return word;
  const equals = word.indexOf('=');
  const name = word.slice(2, equals < 0 ? undefined : equals);
  if (names.includes(name)) return word;
  const matches = names.filter((option) => option.startsWith(name));
  if (matches.length !== 1) return word;
  return `--${matches[0] as string}${equals < 0 ? '' : word.slice(equals)}`;
}

/**
 * The command with its long options as `binary` reads them (`date --fil=F` is `--file=F`, `rm
 * --rec` is `rm --recursive`), up to `--`, after which no word is an option.
 */
export function spellLongOptions(command: ShellCommand, binary: string): ShellCommand {
  const end = command.args.findIndex((word) => word.text === '--');
  const args = command.args.map((word, i) =>
    word.literal && (end < 0 || i < end) && spelledOut(binary, word.text) !== word.text
      ? { ...word, text: spelledOut(binary, word.text) }
      : word,
  );
  return args.every((word, i) => word === command.args[i]) ? command : { ...command, args };
}
