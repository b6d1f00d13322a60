// sed in print mode only: `sed -n` with scripts made of addresses and `p`. Every other sed
// command is refused, because w/W write files, e runs commands, r/R read files no path check
// sees, and s///w, s///e do both; -i edits in place and -f reads a script we cannot see.
import type { ReadOnlyRuleSpec } from './spec.ts';

// Options that neither write, run nor read anything besides the input files.
const QUIET = new Set(['--quiet', '--silent']);
const HARMLESS_LONG = new Set([
  '--regexp-extended',
  '--separate',
  '--null-data',
  '--unbuffered',
  '--posix',
  '--sandbox',
  '--debug',
]);
const HARMLESS_SHORT = new Set(['E', 'r', 's', 'u', 'z']);

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

function skipBlanks(script: string, at: number): number {
  let i = at;
  while (script[i] === ' ' || script[i] === '\t') i++;
  return i;
}

/** True when a sed script is only `[address[,address]][!]p` commands split by `;` or newlines. */
export function isSedPrintScript(script: string): boolean {
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
    if (script[i] !== 'p') return false;
    i = skipBlanks(script, i + 1);
    if (i < script.length && script[i] !== ';' && script[i] !== '\n') return false;
    commands++;
  }
}

/** The files of a print-only `sed -n` call, or null when it may write, run or read a script. */
function sedPrintPaths(args: readonly string[]): readonly string[] | null {
  const scripts: string[] = [];
  const files: string[] = [];
  let quiet = false;
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i] ?? '';
    if (ended || word === '-' || !word.startsWith('-')) files.push(word);
    else if (word === '--') ended = true;
    else if (word.startsWith('--')) {
      const [name = '', value] = word.split(/=(.*)/s);
      if (QUIET.has(word)) quiet = true;
      else if (name === '--expression') {
        const script = value ?? args[++i];
        if (script === undefined) return null;
        scripts.push(script);
      } else if (!HARMLESS_LONG.has(word)) return null;
    } else {
      for (let j = 1; j < word.length; j++) {
        const letter = word[j] ?? '';
        if (letter === 'n') quiet = true;
        else if (letter === 'e') {
          const script = j + 1 < word.length ? word.slice(j + 1) : args[++i];
          if (script === undefined) return null;
          scripts.push(script);
          break;
        } else if (!HARMLESS_SHORT.has(letter)) return null;
      }
    }
  }
  if (!quiet) return null;
  if (scripts.length === 0) {
    const script = files.shift();
    if (script === undefined) return null;
    scripts.push(script);
  }
  return scripts.every(isSedPrintScript) ? files : null;
}

/** `sed -n` printing lines by number or pattern. */
export const SED_PRINT: ReadOnlyRuleSpec = {
  name: 'sed -n p',
  binary: 'sed',
  paths: sedPrintPaths,
  examples: {
    match: [
      "sed -n '1,40p' src/index.ts",
      "sed -n '/TODO/p' notes.md",
      "sed -n -e '1p' -e '$p' a.txt",
      "sed -nE '/^(a|b)/,+3p;$p' log.txt",
    ],
    no_match: [
      "sed '1,40p' a.txt",
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
