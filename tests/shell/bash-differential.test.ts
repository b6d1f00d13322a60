// The parser sees what bash sees: thousands of generated lines and a list of tricky ones, each run
// by a real bash and parsed by parseShell. Every line either gives exactly bash's argv for every
// command, or the parser says it does not understand it (a flagged parse or a word with a piece
// known only at run time), which downstream never allows without a card. A word that is not
// literal but has a reading (`$"…"`, `$(echo x)`: what the guard judges) must read as bash's.
// A silent disagreement fails.
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser, parseShell } from '../../runtime/shell/parse.ts';
import type { ShellCommand, ShellWord } from '../../runtime/shell/types.ts';
import { BASH_ENV, bashArgv, findBash } from './bash-argv.ts';
import { generatedLines } from './generated-lines.ts';

const bash = findBash();
// Variables whose value the parser's parts name and the harness fills in (as the guard does).
const KNOWN: ReadonlyMap<string, string> = new Map(Object.entries(BASH_ENV));
// A brace expansion the parser marks not literal (a word with a variable is not literal either).
const BRACE = /\{[^{}]*(?:,|\.\.)[^{}]*\}/;

beforeAll(async () => {
  await initShellParser();
});

/** The word as bash would pass it, or null when the parser says it is not known from the text. */
function understood(word: ShellWord, assigned: ReadonlyMap<string, string>): string | null {
  // A literal `~+`, `~-`, `~name` is a directory the text does not name (read as unknown downstream).
  if (word.literal && /^~[^/]/.test(word.text)) return null;
  if (!word.literal) {
    // Not literal for a reason other than a variable (glob, brace, a tilde bash keeps ...).
    if (
      word.glob ||
      word.text.startsWith('~') ||
      BRACE.test(word.text) ||
      word.parts.every((p) => p.kind === 'text')
    )
      return null;
  }
  let text = '';
  for (const part of word.parts) {
    // A piece the parser reads for the guard (`$"…"` as its string, `$(echo x)` as x) must be
    // what bash reads too.
    if (part.kind === 'dynamic') {
      if (part.output === null) return null;
      text += part.output;
    } else if (part.kind === 'text') text += part.text;
    else {
      const value = assigned.get(part.name) ?? KNOWN.get(part.name);
      if (value === undefined) return null;
      text += value;
    }
  }
  return word.literal && /^~(?:\/|$)/.test(text) ? BASH_ENV.HOME + text.slice(1) : text;
}

/** The argv of every top-level command, or null when the parser flags the line. */
function parserArgv(source: string): string[][] | null {
  const parsed = parseShell(source);
  if (parsed.errors) return null;
  const argv: string[][] = [];
  // Values set by a line of assignments alone (`x=…; pr $x`), not by a prefix (`x=… pr $x`).
  const standalone = new Map(
    parsed.commands
      .filter((c) => c.name === null)
      .flatMap((c) => c.assignments)
      .filter((a) => a.value.literal)
      .map((a) => [a.name, a.value.text]),
  );
  for (const command of parsed.commands.filter((c: ShellCommand) => c.origin === 'top')) {
    const words = command.name === null ? [] : [command.name, ...command.args];
    // A line of redirections alone runs no command.
    if (words.length === 0) continue;
    const texts = words.map((word) => understood(word, standalone));
    if (texts.some((t) => t === null)) return null;
    argv.push(texts as string[]);
  }
  return argv;
}

interface Tally {
  agree: number;
  flagged: number;
  /**
   * A command named with a `/` or a `%` job (after a comment cut a line): bash runs a path or a
   * job for it, never the recording function, so it records nothing.
   */
  unverifiable: number;
  disagree: { line: string; parser: string[][]; bash: string[][] }[];
}

function compare(lines: readonly string[]): Tally {
  const fromBash = bashArgv((bash as { path: string }).path, lines);
  const tally: Tally = { agree: 0, flagged: 0, unverifiable: 0, disagree: [] };
  lines.forEach((line, i) => {
    const parser = parserArgv(line);
    const expected = fromBash[i] ?? [];
    if (parser === null) tally.flagged += 1;
    else if (parser.some((argv) => /^%|\//.test(argv[0] ?? ''))) tally.unverifiable += 1;
    else if (JSON.stringify(parser) === JSON.stringify(expected)) tally.agree += 1;
    else tally.disagree.push({ line, parser, bash: expected });
  });
  return tally;
}

const TRICKY = [
  // Line continuations: joined outside single quotes, kept inside them and in comments.
  'pr /etc/sha\\\ndow',
  'p\\\nr a\\\nb',
  "pr \"a\\\nb\" 'c\\\nd' $'e\\\nf'",
  'pr a\\\\\npr b',
  'pr a\\\\\\\nb',
  'pr a # c \\\npr b',
  'pr a\\\n#b',
  'pr \\\n#b',
  'pr $\\\nA ${\\\nA} "$\\\nA"',
  'pr "$(pr x\\\ny)"',
  'pr a\\\n\\\nb',
  'pr\\\n a',
  // Redirections with words after them, and here-documents.
  'pr 2>/dev/null a b',
  'pr >/dev/null a "b c"',
  '</dev/null pr a',
  'pr <<EOF a\nbody\nEOF',
  "pr <<'EOF' a\\\nb\nx\\\ny\nEOF",
  'pr <<EOF >/dev/null a\nx\nEOF',
  // ANSI-C and locale strings.
  "pr $'\\x41\\101\\u0041' $'\\c?' $'\\cA' $'a\\'b' $'\\q' $'\\e'",
  "pr $'\\xc3\\xa9' $'\\xff' $'\\u00e9' $'\\U0001F600'",
  'pr $"a$A" $"b\\"c"',
  'pr -$"R"f $"-rf" "-"$"rf" a$"b"c $"" $"$A"x',
  'pr $(echo -rf) `echo x` a$(echo b)c',
  // Tildes.
  'pr ~ ~/x ~"/x" \'~\'/x \\~/x ~\\/x ~/"a" ~""',
  'pr x=~/y x=a:~/y --x=~/y 1x=~ A=~ =~',
  'pr ~+ ~- ~root ~nosuchuser',
  // Comments and hashes.
  'pr a#b #c',
  'pr $# ${#A} a\\#b \\#c',
  // Braces, globs, arithmetic, substitutions.
  'pr {a,b} a{1..3} {a} {} "{a,b}" \\{a,b}',
  'pr * ? [a] "*" \\*',
  'pr $((1+2)) $(pr x) `pr y`',
  // Escapes before ordinary characters and quotes next to expansions.
  'pr \\a\\b\\c \\\\ \\\' \\" \\$A',
  'pr "$A"x x"$A" "$A""$B" \'$A\'"$A"',
  'pr "\\a\\$\\`\\"\\\\"',
  // Blanks bash keeps in a word.
  'pr a\rb',
  'pr a\vb c\fd',
  'pr a\u00a0b',
  'pr a\r\npr b',
  'pr "a\rb"',
  // Values the grammar ends early (at a quote before an escape).
  'x="/etc/sha"\\dow; pr $x',
  'for f in "/etc/sha"\\dow a"b"\\c; do pr $f; done',
  'x=a\\\nb; pr "$x"',
  // Words the grammar takes for assignments, which bash runs as commands.
  '9= pr a',
  'a-b=c pr',
  // Assignments before the command and declarations.
  'X=1 pr a',
  'A=z pr $A',
];

describe.skipIf('skip' in bash)(
  `parseShell agrees with bash ${'skip' in bash ? bash.skip : ''}`,
  () => {
    it('on a hand-written list of tricky lines', () => {
      const tally = compare(TRICKY);
      expect(tally.disagree.map((d) => JSON.stringify(d))).toEqual([]);
      expect(tally.agree).toBeGreaterThan(TRICKY.length / 3);
    });

    it('reads a locale string $"…" and an echoed substitution as bash passes them', () => {
      const lines = TRICKY.filter(
        (line) => line.includes('$"-rf"') || line.includes('$(echo -rf)'),
      );
      expect(compare(lines)).toMatchObject({ agree: lines.length, disagree: [] });
    });

    it('on 3000 generated lines (seeded)', { timeout: 120_000 }, () => {
      const lines = generatedLines(10, 3000);
      const tally = compare(lines);
      expect(tally.disagree.slice(0, 20).map((d) => JSON.stringify(d))).toEqual([]);
      // Most lines must be understood, or the test would prove nothing.
      expect(tally.agree).toBeGreaterThan(lines.length / 3);
      expect(tally.unverifiable).toBeLessThan(lines.length / 50);
    });
  },
);
