// Text helpers for the guard: path-like tokens inside any string, the values a shell word can
// take once known variables are substituted, and glob patterns as matchers.
import type { ParsedShell, ShellWord, WordPart } from '../shell/types.ts';
import { derivedValues, UNKNOWN } from './derived-values.ts';
import { normalizePath } from './normalize-path.ts';
import { shellScriptAt } from '../shell/unwrap.ts';

const HOME_VAR = /\$\{HOME\}|\$HOME(?![A-Za-z0-9_])/g;
// Anything that cannot be part of a path as written in code, prose, URLs or options.
const SEPARATORS = /[\s'"`;|&()<>=,@:{}[\]\\!$*?#%^+]+/;
// Bounds on substitution: a script with many assignments is judged on a sample, never expanded forever.
const MAX_VALUES_PER_VAR = 8;
const MAX_EXPANSIONS = 32;
const ROUNDS = 3;
// Brace matching backtracks on long texts; a longer word is judged as written.
const MAX_BRACE_TEXT = 4096;
// {a,b} alternatives (no nesting): enough to see /etc/{passwd,shadow}.
const BRACE = /\{([^{}]*,[^{}]*)\}/;

/** Normalised path-like tokens of a text: `open('/etc/shadow')` gives /etc/shadow. */
export function pathTokens(text: string, home: string): string[] {
  const out: string[] = [];
  for (const token of text.replace(HOME_VAR, home).split(SEPARATORS)) {
    if (token.includes('/') || token.startsWith('.')) out.push(normalizePath(token, home));
  }
  return out;
}

/** What a word's pieces are expanded against: variable values, the home, the run directories. */
interface Scope {
  readonly vars: ReadonlyMap<string, readonly string[]>;
  readonly home: string;
  readonly pwd: readonly string[];
}

/** The values of one piece: a variable's (or its default's), or what a derived piece computes to. */
function partValues(part: WordPart, scope: Scope): readonly string[] {
  if (part.kind === 'text') return [part.text];
  if (part.kind === 'var') {
    const known = scope.vars.get(part.name);
    if (part.otherwise === undefined) return known ?? UNKNOWN;
    // `${x:-word}`: the word wherever x may be unset or empty.
    const fallback = expandParts(part.otherwise.parts, scope);
    return known === undefined
      ? [...UNKNOWN, ...fallback]
      : [...known, ...(known.includes('') ? fallback : [])];
  }
  if (part.output !== null) return [part.output];
  if (part.derived === undefined) return UNKNOWN;
  const values = (word: ShellWord): readonly string[] =>
    word.literal ? [word.text] : expandParts(word.parts, scope);
  return derivedValues(part.derived, { ...scope, values });
}

function expandParts(parts: readonly WordPart[], scope: Scope): string[] {
  let results = [''];
  for (const part of parts) {
    // An unknown variable or a substitution may be empty (`rm -rf "$DIR"/*` with DIR unset is /*)
    // or any one path segment (`/proc/$PID/environ`).
    const options = partValues(part, scope);
    const next = new Set<string>();
    for (const prefix of results) {
      for (const option of options) {
        if (next.size < MAX_EXPANSIONS) next.add(prefix + option);
      }
    }
    results = [...next];
  }
  return results;
}

/** Literal values of each variable, plus those built from other variables (`p="$dir/$name"`). */
function variableValues(
  parsed: ParsedShell,
  home: string,
  positional: readonly string[],
  pwd: readonly string[],
): Map<string, string[]> {
  const vars = new Map<string, string[]>([...parsed.variables].map(([k, v]) => [k, [...v]]));
  vars.set('HOME', [home]);
  // $PWD is where the command runs (the line may set its own, which comes on top).
  if (pwd.length > 0) vars.set('PWD', [...new Set([...pwd, ...(vars.get('PWD') ?? [])])]);
  const derived = parsed.commands.flatMap((c) => c.assignments).filter((a) => !a.value.literal);
  for (let round = 0; round < ROUNDS && derived.length > 0; round += 1) {
    for (const { name, value } of derived) {
      if (name === 'HOME') continue;
      const values = vars.get(name) ?? [];
      for (const v of expandParts(value.parts, { vars, home, pwd })) {
        if (values.length < MAX_VALUES_PER_VAR && !values.includes(v)) values.push(v);
      }
      vars.set(name, values);
    }
  }
  const scope = { vars, home, pwd };
  const lists = [positional.map((v) => [v]), ...positionalLists(parsed, scope)];
  const names = scriptNames(parsed, scope);
  if (names.length > 0) vars.set('0', names.slice(0, MAX_VALUES_PER_VAR));
  addPositional(
    vars,
    lists,
    parsed.commands.some((c) => c.binary === 'shift'),
  );
  return vars;
}

/**
 * The lists of values the line makes its positional parameters ($1 …): `set -- a b` (or
 * `set a b`), the arguments of each call of a function the line defines, and those after the
 * script's name in `sh -c SCRIPT NAME ARGS…`.
 */
function positionalLists(parsed: ParsedShell, scope: Scope): string[][][] {
  const lists: string[][][] = [];
  for (const command of parsed.commands) {
    let words: readonly ShellWord[] | null = null;
    if (command.binary === 'set') {
      const dashes = command.args.findIndex((a) => a.text === '--' || a.text === '-');
      const first = command.args[0];
      if (dashes >= 0) words = command.args.slice(dashes + 1);
      else if (first !== undefined && !/^[-+]/.test(first.text)) words = command.args;
    } else if (command.binary !== null && parsed.functions.has(command.binary))
      words = command.args;
    else {
      // `sh -c SCRIPT NAME ARGS…`: NAME is the script's $0 and ARGS its $1 …
      const at = shellScriptAt(command.binary, command.args);
      if (at >= 0) words = command.args.slice(at + 2);
    }
    if (words !== null)
      lists.push(words.map((w) => (w.literal ? [w.text] : expandParts(w.parts, scope))));
  }
  return lists;
}

/** The values of $0 in a script the line runs as `sh -c SCRIPT NAME …`: NAME. */
function scriptNames(parsed: ParsedShell, scope: Scope): string[] {
  const names = parsed.commands.flatMap((command) => {
    const at = shellScriptAt(command.binary, command.args);
    const name = at < 0 ? undefined : command.args[at + 1];
    if (name === undefined) return [];
    return name.literal ? [name.text] : expandParts(name.parts, scope);
  });
  return [...new Set(names)];
}

/** $1 … $9, $@ and $* from each list; after a `shift`, any later value may be at any position. */
function addPositional(vars: Map<string, string[]>, lists: string[][][], shifts: boolean): void {
  for (const list of lists) {
    list.forEach((_values, i) => {
      const at = shifts ? list.slice(i).flat() : (list[i] ?? []);
      const values = vars.get(String(i + 1)) ?? [];
      for (const v of at)
        if (values.length < MAX_VALUES_PER_VAR && !values.includes(v)) values.push(v);
      vars.set(String(i + 1), values);
    });
    if (list.length === 0) continue;
    const all = list.flat();
    vars.set('@', [...new Set([...(vars.get('@') ?? []), ...all])].slice(0, MAX_VALUES_PER_VAR));
    // "$*" is every value joined by a space.
    const starred = [...all, list.map((values) => values[0] ?? '').join(' ')];
    vars.set(
      '*',
      [...new Set([...(vars.get('*') ?? []), ...starred])].slice(0, MAX_VALUES_PER_VAR),
    );
  }
}

/** Brace expansion, bounded: `/etc/{passwd,shadow}` gives both paths. */
function expandBraces(text: string): string[] {
  let results = [text];
  for (let round = 0; round < 4 && results.some((r) => BRACE.test(r)); round += 1) {
    results = results
      .flatMap((r) => {
        const m = BRACE.exec(r);
        if (m === null) return [r];
        return (m[1] as string)
          .split(',')
          .map((alt) => r.slice(0, m.index) + alt + r.slice(m.index + m[0].length));
      })
      .slice(0, MAX_EXPANSIONS);
  }
  return results;
}

/**
 * The texts a word can take (un-normalised): known variables, $1... (`positional`) and $PWD
 * (each directory in `pwd`) substituted; `$(pwd)` and the like in a word print the directories
 * `dirsOf` gives for it (its command's), else `pwd`.
 */
export function wordValues(
  parsed: ParsedShell,
  home: string,
  positional: readonly string[] = [],
  pwd: readonly string[] = [],
  dirsOf: (word: ShellWord) => readonly string[] = () => pwd,
): (word: ShellWord) => readonly string[] {
  let vars: Map<string, string[]> | null = null;
  const cache = new Map<ShellWord, readonly string[]>();
  return (word) => {
    if (word.literal) return [word.text];
    const cached = cache.get(word);
    if (cached) return cached;
    let values: string[] = [word.text];
    if (!word.parts.every((p) => p.kind === 'text')) {
      vars ??= variableValues(parsed, home, positional, pwd);
      values = expandParts(word.parts, { vars, home, pwd: dirsOf(word) });
    }
    const expanded = values.flatMap((v) =>
      v.includes('{') && v.length <= MAX_BRACE_TEXT ? expandBraces(v) : [v],
    );
    cache.set(word, expanded);
    return expanded;
  };
}

/** Callers bound the number of wildcards (see MAX_GLOB_WILDCARDS): each one multiplies backtracking. */
export const MAX_GLOB_WILDCARDS = 12;

/** A matcher for a shell glob (* ? [..]) against whole paths; * and ? never cross a slash or match a leading dot. */
export function globMatcher(pattern: string): (path: string) => boolean {
  // ** is * here (no globstar), and runs of stars would only slow the regex down.
  const glob = pattern.replace(/\*{2,}/g, '*');
  let source = '';
  for (let i = 0; i < glob.length; i += 1) {
    const ch = glob[i] as string;
    // Like bash without dotglob: a wildcard never matches the leading dot of a name.
    if ('*?['.includes(ch) && (i === 0 || glob[i - 1] === '/')) source += '(?!\\.)';
    if (ch === '*') source += '[^/]*';
    else if (ch === '?') source += '[^/]';
    else if (ch === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) {
        source += '\\[';
        continue;
      }
      const body = glob
        .slice(i + 1, close)
        .replace(/^!/, '^')
        .replace(/[\\\]]/g, '\\$&');
      source += `[${body}]`;
      i = close;
    } else source += ch.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  const regex = new RegExp(`^${source}$`);
  return (path) => regex.test(path);
}
