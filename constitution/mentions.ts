// A mention is not a read: words a program only treats as text (a grep pattern, a commit
// message, `git log -S` string, what echo prints) name no file it opens, so a protected path
// inside them is judged as text: no guard denial, but never a run without a card either.
// Words that code reads (interpreter payloads, awk programs, sed scripts), file operands,
// redirects and anything whose output feeds another program stay judged as paths.
import type { ShellCommand, ShellWord } from '../runtime/shell/types.ts';

// Programs whose first operand is a search pattern unless -e/-f gives it.
const GREPS: ReadonlySet<string> = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'zgrep']);
// grep-family short options that take a value as the next word (-e and -f are handled apart).
const GREP_VALUE_FLAGS = /^-[ABCmdDgtTMj]$/;
// git options whose value is a string to search for or a message.
const GIT_TEXT_FLAGS: ReadonlySet<string> = new Set(['-S', '-G', '--grep', '-m', '--message']);
const GIT_TEXT_ATTACHED = /^(?:-[SGm].|--(?:grep|message)=)/;
const GIT_TEXT_SUBCOMMANDS: ReadonlySet<string> = new Set([
  'log',
  'show',
  'whatchanged',
  'rev-list',
  'commit',
  'tag',
  'merge',
  'revert',
  'stash',
  'notes',
]);

/** The words of a grep that are patterns: values of -e/--regexp, else the first operand. */
function grepPatterns(args: readonly ShellWord[]): ShellWord[] {
  const patterns: ShellWord[] = [];
  let first: ShellWord | null = null;
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i] as ShellWord;
    const t = word.text;
    // -f names a file of patterns: then no operand is a pattern, and the file is a read.
    if (word.literal && (t === '-f' || t.startsWith('--file'))) return patterns;
    if (word.literal && (t === '-e' || t === '--regexp')) {
      const value = args[i + 1];
      if (value !== undefined) patterns.push(value);
      i += 1;
    } else if (word.literal && (/^-e./.test(t) || t.startsWith('--regexp='))) {
      patterns.push(word);
    } else if (word.literal && GREP_VALUE_FLAGS.test(t)) {
      i += 1;
    } else if (!(word.literal && t.startsWith('-')) && first === null) {
      first = word;
    }
  }
  return patterns.length > 0 || first === null ? patterns : [first];
}

/** git's search strings and messages (`git log -S x`, `git commit -m x`). */
function gitTexts(args: readonly ShellWord[]): ShellWord[] {
  const sub = args.find((a) => !a.text.startsWith('-'));
  if (sub === undefined || !GIT_TEXT_SUBCOMMANDS.has(sub.text)) return [];
  return args.flatMap((word, i) => {
    if (!word.literal) return [];
    if (GIT_TEXT_FLAGS.has(word.text)) {
      const value = args[i + 1];
      return value === undefined ? [] : [value];
    }
    return GIT_TEXT_ATTACHED.test(word.text) ? [word] : [];
  });
}

// Programs that act on a path from outside (its name, mode, owner, times), never on its bytes.
const NAMERS: ReadonlySet<string> = new Set(['ls', 'stat', 'chmod', 'chown', 'chgrp']);
// Below /proc and /sys a name or a link is itself kernel state (an fd's target, an EFI variable).
const KERNEL_STATE = /^\/(?:proc|sys)(?:\/|$)/;
// Key files handed to the ssh family: the program signs with the key, never prints or sends it.
const KEY_FILE_OPTIONS: ReadonlyMap<string, string> = new Map([
  ['ssh', '-i'],
  ['scp', '-i'],
  ['sftp', '-i'],
  ['ssh-keygen', '-f'],
]);

/** The value of a key-file option (`-i KEY`, `-iKEY`, `-lf KEY`). */
function keyFiles(args: readonly ShellWord[], option: string): ShellWord[] {
  const letter = option.slice(1);
  return args.flatMap((word, i) => {
    if (!word.literal || !word.text.startsWith('-') || word.text.startsWith('--')) return [];
    const next = args[i + 1];
    if (word.text.endsWith(letter) && next !== undefined) return [next];
    return word.text.startsWith(option) && word.text.length > 2 ? [word] : [];
  });
}

/**
 * Words of this command that are only text to it. echo and printf count only when what they
 * print goes nowhere but the terminal or a file (not a pipe, not a substitution): piped into a
 * shell or xargs, printed text becomes code or arguments.
 */
export function mentionWords(command: ShellCommand): ReadonlySet<ShellWord> {
  const b = command.binary;
  if (b === null || command.wrappers.length > 0) return new Set();
  // rg --files lists the files under its operands: no pattern, every operand a path.
  if (GREPS.has(b) && !command.args.some((a) => a.text === '--files'))
    return new Set(grepPatterns(command.args));
  if (b === 'git') return new Set(gitTexts(command.args));
  if (NAMERS.has(b)) return new Set(command.args.filter((w) => !KERNEL_STATE.test(w.text)));
  const keyOption = KEY_FILE_OPTIONS.get(b);
  if (keyOption !== undefined) return new Set(keyFiles(command.args, keyOption));
  const printed = b === 'echo' || b === 'printf';
  const alone = command.pipeline.length === 1 && command.origin !== 'substitution';
  // printf -v NAME stores the text in a variable, for later commands to use as they like.
  const stored = b === 'printf' && command.args.some((a) => a.text === '-v');
  if (printed && alone && !stored && command.origin !== 'process-substitution')
    return new Set(command.args);
  return new Set();
}
