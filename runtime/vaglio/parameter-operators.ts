// bash's parameter operators applied to a known value, as the bash manual (Shell Parameter
// Expansion) describes them: pattern removal (`#`, `##`, `%`, `%%`), replacement (`/`, `//`,
// `/#`, `/%`), substrings (`:offset`, `:offset:length`), case (`^`, `^^`, `,`, `,,`, `~`, `~~`,
// `@U`, `@L`, `@u`), `@Q`, `@E`, and `${#x}` (the length, written `length` here). The operator text is the one written after
// the name, free of quotes and expansions (the parser leaves those unread). Null when bash's
// answer is not plainly known here (an extended glob, `&` in a replacement, an arithmetic offset).

// A character a bash pattern gives a meaning to beyond itself in an extended glob.
const EXTGLOB = /[?*+@!]\(/;

/** A bash pattern (`*`, `?`, `[…]`) as a regular expression source; null for an extended glob. */
function patternSource(pattern: string): string | null {
  if (EXTGLOB.test(pattern)) return null;
  let source = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const ch = pattern[i] as string;
    if (ch === '*') source += '[\\s\\S]*';
    else if (ch === '?') source += '[\\s\\S]';
    else if (ch === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close < 0) {
        source += '\\[';
        continue;
      }
      const body = pattern
        .slice(i + 1, close)
        .replace(/^[!^]/, '^')
        .replace(/[\\\]]/g, '\\$&');
      // A [:class:] inside brackets is not read here.
      if (body.includes('[:')) return null;
      source += `[${body}]`;
      i = close;
    } else source += ch.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  return source;
}

function wholeMatch(pattern: string): RegExp | null {
  const source = patternSource(pattern);
  return source === null ? null : new RegExp(`^(?:${source})$`);
}

/** `#`, `##` (from the front) and `%`, `%%` (from the back): the shortest or longest match removed. */
function removed(value: string, operator: string): string | null {
  const fromEnd = operator.startsWith('%');
  const longest = operator.startsWith('##') || operator.startsWith('%%');
  const match = wholeMatch(operator.slice(longest ? 2 : 1));
  if (match === null) return null;
  const cuts = [...Array(value.length + 1).keys()];
  // From the front, a short match ends early; from the back, a short match starts late.
  const order = fromEnd === longest ? cuts : cuts.reverse();
  for (const cut of order) {
    if (fromEnd && match.test(value.slice(cut))) return value.slice(0, cut);
    if (!fromEnd && match.test(value.slice(0, cut))) return value.slice(cut);
  }
  return value;
}

/** `/pat/rep`, `//pat/rep`, `/#pat/rep`, `/%pat/rep`: the longest match replaced (all with `//`). */
function replaced(value: string, operator: string): string | null {
  const all = operator.startsWith('//');
  const anchor = /^\/[#%]/.test(operator) ? (operator[1] as string) : '';
  const body = operator.slice(all || anchor !== '' ? 2 : 1);
  const slash = body.indexOf('/');
  const pattern = slash < 0 ? body : body.slice(0, slash);
  const replacement = slash < 0 ? '' : body.slice(slash + 1);
  // bash 5.2 puts the matched text where the replacement has an unquoted `&`.
  if (replacement.includes('&')) return null;
  if (pattern === '') return value;
  const source = patternSource(pattern);
  if (source === null) return null;
  const front = anchor === '#' ? '^' : '';
  const back = anchor === '%' ? '$' : '';
  // A JavaScript regex takes the first, longest-greedy match; bash takes the longest at the
  // first position: make every quantifier greedy (they are) and try each end from the longest.
  const at = new RegExp(`${front}(?:${source})${back}`, all ? 'g' : '');
  return value.replace(at, (matched) => (matched === '' ? matched : replacement));
}

/** `:offset` and `:offset:length`, plain integers only (bash evaluates them as arithmetic). */
function substring(value: string, operator: string): string | null {
  const parts = /^:\s*(-?\d+)\s*(?::\s*(-?\d+)\s*)?$/.exec(operator);
  if (parts === null) return null;
  let start = Number(parts[1]);
  // An offset before the start or past the end gives nothing (bash 5: `x=abc; ${x: -5}` is empty).
  if (start < 0) start = value.length + start;
  if (start < 0 || start > value.length) return '';
  if (parts[2] === undefined) return value.slice(start);
  const length = Number(parts[2]);
  return length < 0
    ? value.slice(start, value.length + length)
    : value.slice(start, start + length);
}

const flip = (ch: string): string =>
  ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase();

/** `^`, `^^`, `,`, `,,`, `~`, `~~`, each with an optional one-character pattern. */
function recased(value: string, operator: string): string | null {
  const twice = operator[1] === operator[0];
  const pattern = operator.slice(twice ? 2 : 1);
  const match = wholeMatch(pattern === '' ? '?' : pattern);
  if (match === null) return null;
  const change =
    operator[0] === '^'
      ? (ch: string) => ch.toUpperCase()
      : operator[0] === ','
        ? (ch: string) => ch.toLowerCase()
        : flip;
  return [...value]
    .map((ch, i) => ((twice || i === 0) && match.test(ch) ? change(ch) : ch))
    .join('');
}

/** The value bash gives `${name<operator>}` when name holds `value`; null when not known here. */
export function applyOperator(value: string, operator: string): string | null {
  if (operator === 'length') return String([...value].length);
  if (/^[#%]/.test(operator)) return removed(value, operator);
  if (operator.startsWith('/')) return replaced(value, operator);
  if (operator.startsWith(':')) return substring(value, operator);
  if (/^[\^,~]/.test(operator)) return recased(value, operator);
  switch (operator) {
    case '@U':
      return value.toUpperCase();
    case '@L':
      return value.toLowerCase();
    case '@u':
      return value.length === 0 ? value : (value[0] as string).toUpperCase() + value.slice(1);
    case '@Q':
      return value.includes("'") ? null : `'${value}'`;
    case '@E':
      return value.includes('\\') ? null : value;
    default:
      return null;
  }
}
