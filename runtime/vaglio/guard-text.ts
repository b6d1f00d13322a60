// Text helpers for the guard: path-like tokens inside any string, the values a shell word can
// take once known variables are substituted, and glob patterns as matchers.
import type { ParsedShell, ShellWord, WordPart } from '../shell/types.ts';
import { normalizePath } from './normalize-path.ts';

const HOME_VAR = /\$\{HOME\}|\$HOME(?![A-Za-z0-9_])/g;
// Anything that cannot be part of a path as written in code, prose, URLs or options.
const SEPARATORS = /[\s'"`;|&()<>=,@:{}[\]\\!$*?#%^+]+/;
// Bounds on substitution: a script with many assignments is judged on a sample, never expanded forever.
const MAX_VALUES_PER_VAR = 8;
const MAX_EXPANSIONS = 32;
const ROUNDS = 3;
const UNKNOWN = ['', 'unknown'];
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

function expandParts(
  parts: readonly WordPart[],
  vars: ReadonlyMap<string, readonly string[]>,
): string[] {
  let results = [''];
  for (const part of parts) {
    // An unknown variable or a substitution may be empty (`rm -rf "$DIR"/*` with DIR unset is /*)
    // or any one path segment (`/proc/$PID/environ`).
    const options =
      part.kind === 'text'
        ? [part.text]
        : part.kind === 'var'
          ? (vars.get(part.name) ?? UNKNOWN)
          : part.output !== null
            ? [part.output]
            : UNKNOWN;
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
  positional.forEach((value, i) => vars.set(String(i + 1), [value]));
  if (positional.length > 0) {
    vars.set('@', [...positional]);
    vars.set('*', [...positional, positional.join(' ')]);
  }
  const derived = parsed.commands.flatMap((c) => c.assignments).filter((a) => !a.value.literal);
  for (let round = 0; round < ROUNDS && derived.length > 0; round += 1) {
    for (const { name, value } of derived) {
      if (name === 'HOME') continue;
      const values = vars.get(name) ?? [];
      for (const v of expandParts(value.parts, vars)) {
        if (values.length < MAX_VALUES_PER_VAR && !values.includes(v)) values.push(v);
      }
      vars.set(name, values);
    }
  }
  return vars;
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
 * (each directory in `pwd`) substituted.
 */
export function wordValues(
  parsed: ParsedShell,
  home: string,
  positional: readonly string[] = [],
  pwd: readonly string[] = [],
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
      values = expandParts(word.parts, vars);
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
