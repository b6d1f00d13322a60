// sed as a filter: scripts made of addresses with `p` (print), `d` (delete from the output) and
// `s/re/replacement/flags` whose flags only choose what is replaced and printed. Every other sed
// command is refused, because w/W write files, e runs commands, r/R read files no path check
// sees, and s///w, s///e do both; -i edits in place and -f reads a script we cannot see.
import type { ReadOnlyRuleSpec } from './spec.ts';

// Options that neither write, run nor read anything besides the input files.
const HARMLESS_LONG = new Set([
  '--quiet',
  '--silent',
  '--regexp-extended',
  '--separate',
  '--null-data',
  '--unbuffered',
  '--posix',
  '--sandbox',
  '--debug',
]);
const HARMLESS_SHORT = new Set(['n', 'E', 'r', 's', 'u', 'z']);

/** The end of a regex opened by `delimiter` at `start`, or -1 when it is unclear or unclosed. */
function regexEnd(script: string, start: number, delimiter: string): number {
  let i = start + 1;
  while (i < script.length) {
    const ch = script[i];
    if (ch === '\n') return -1;
    if (ch === delimiter) return i;
    if (ch === '\\') {
      if (i + 1 >= script.length || script[i + 1] === '\n') return -1;
      i += 2;
      continue;
    }
    if (ch === '[') {
      // sed implementations disagree on whether a bracket hides the delimiter or a backslash,
      // so a bracket holding either is refused: then every reading ends the regex at one place.
      let j = i + 1;
      if (script[j] === '^') j++;
      if (script[j] === ']') j++;
      while (j < script.length && script[j] !== ']') {
        const inner = script[j];
        if (inner === delimiter || inner === '\\' || inner === '\n') return -1;
        if (inner === '[' && /[:.=]/.test(script[j + 1] ?? '')) {
          const close = script.indexOf(`${script[j + 1] ?? ''}]`, j + 2);
          if (close < 0 || script.slice(j + 2, close).includes(delimiter)) return -1;
          j = close + 2;
        } else j++;
      }
      if (j >= script.length) return -1;
      i = j + 1;
      continue;
    }
    i++;
  }
  return -1;
}

/** The index just past one address at `at` (second: the forms only an end address may take), or -1. */
function addressEnd(script: string, at: number, second: boolean): number {
  const rest = script.slice(at);
  const numeric = (second ? /^(?:[+~]?\d+|\$)/ : /^(?:\d+(?:~\d+)?|\$)/).exec(rest);
  if (numeric !== null) return at + numeric[0].length;
  let open = at;
  if (script[at] === '\\') open = at + 1;
  else if (script[at] !== '/') return -1;
  const delimiter = script[open] ?? '';
  if (delimiter === '' || delimiter === '\n' || delimiter === '\\') return -1;
  const end = regexEnd(script, open, delimiter);
  if (end < 0) return -1;
  let after = end + 1;
  while (script[after] === 'I' || script[after] === 'M') after++;
  return after;
}

/** Delimiters of a substitution read here: punctuation that is not special in a bracket or a regex escape. */
const SUBSTITUTE_DELIMITER = /^[/|#,:@!%+~]$/;

/**
 * The index just past `s<d>regex<d>replacement<d>flags` at `at`, or -1. The flags may only be g,
 * p, a count, and the case (i, I) and multi-line (m, M) ones: w writes a file and e runs the
 * result as a command. A replacement spanning lines is refused.
 */
function substitutionEnd(script: string, at: number): number {
  const delimiter = script[at + 1] ?? '';
  if (!SUBSTITUTE_DELIMITER.test(delimiter)) return -1;
  const regex = regexEnd(script, at + 1, delimiter);
  if (regex < 0) return -1;
  let i = regex + 1;
  for (;;) {
    const ch = script[i];
    if (ch === undefined || ch === '\n') return -1;
    if (ch === delimiter) break;
    if (ch === '\\') {
      if (i + 1 >= script.length || script[i + 1] === '\n') return -1;
      i += 2;
    } else i++;
  }
  i++;
  while (/[gpiImM0-9]/.test(script[i] ?? '')) i++;
  return i;
}

function skipBlanks(script: string, at: number): number {
  let i = at;
  while (script[i] === ' ' || script[i] === '\t') i++;
  return i;
}

/**
 * True when a sed script is only `[address[,address]][!]COMMAND` commands split by `;` or newlines,
 * each command `p`, `d` or a substitution (substitutionEnd).
 */
export function isSedFilterScript(script: string): boolean {
  let i = 0;
  let commands = 0;
  for (;;) {
    while (i < script.length && /[ \t;\n]/.test(script[i] ?? '')) i++;
    if (i >= script.length) return commands > 0;
    const first = addressEnd(script, i, false);
    if (first >= 0) {
      i = skipBlanks(script, first);
      if (script[i] === ',') {
        const second = addressEnd(script, skipBlanks(script, i + 1), true);
        if (second < 0) return false;
        i = skipBlanks(script, second);
      }
    }
    if (script[i] === '!') i = skipBlanks(script, i + 1);
    if (script[i] === 'p' || script[i] === 'd') i = skipBlanks(script, i + 1);
    else if (script[i] === 's') {
      const end = substitutionEnd(script, i);
      if (end < 0) return false;
      i = skipBlanks(script, end);
    } else return false;
    if (i < script.length && script[i] !== ';' && script[i] !== '\n') return false;
    commands++;
  }
}

/** The files of a filtering sed call, or null when it may write, run or read a script. */
function sedFilterPaths(args: readonly string[]): readonly string[] | null {
  const scripts: string[] = [];
  const files: string[] = [];
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i] ?? '';
    if (ended || word === '-' || !word.startsWith('-')) files.push(word);
    else if (word === '--') ended = true;
    else if (word.startsWith('--')) {
      const [name = '', value] = word.split(/=(.*)/s);
      if (name === '--expression') {
        const script = value ?? args[++i];
        if (script === undefined) return null;
        scripts.push(script);
      } else if (!HARMLESS_LONG.has(word)) return null;
    } else {
      for (let j = 1; j < word.length; j++) {
        const letter = word[j] ?? '';
        if (letter === 'e') {
          const script = j + 1 < word.length ? word.slice(j + 1) : args[++i];
          if (script === undefined) return null;
          scripts.push(script);
          break;
        } else if (!HARMLESS_SHORT.has(letter)) return null;
      }
    }
  }
  if (scripts.length === 0) {
    const script = files.shift();
    if (script === undefined) return null;
    scripts.push(script);
  }
  return scripts.every(isSedFilterScript) ? files : null;
}

/** sed printing, dropping or rewriting lines of its input on the way to the output. */
export const SED_FILTER: ReadOnlyRuleSpec = {
  name: 'sed filter',
  binary: 'sed',
  paths: sedFilterPaths,
  examples: {
    match: [
      "sed -n '1,40p' src/index.ts",
      "sed -n '/TODO/p' notes.md",
      "sed -n -e '1p' -e '$p' a.txt",
      "sed -nE '/^(a|b)/,+3p;$p' log.txt",
      "sed 's/.*\\.//' names.txt",
      "sed -E 's|^/home/[a-z]+|~|g; /^$/d' paths.txt",
    ],
    no_match: [
      "sed -i 's/a/b/' a.txt",
      "sed 's/a/b/w out.txt' a.txt",
      "sed -n '1w out.txt' a.txt",
      "sed -n 's/a/b/w out.txt' a.txt",
      "sed -n 's/x/date/e' a.txt",
      "sed -n '1r /etc/shadow' a.txt",
      "sed -n -i '1p' a.txt",
      'sed -n -f script.sed a.txt',
      "sed -n --expression='1e id' a.txt",
    ],
  },
};
