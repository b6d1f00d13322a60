// Whether an in-place editing script only substitutes text: `s/old/new/g` for sed, the same
// for `perl -pi -e`. Read conservatively, and never as a full grammar: a script is accepted
// only when every piece of it is one this reader knows, so a reading that differed from the
// program's could only turn an allowed script into a refused one. Pure.

/** The end of a delimited part starting at `from` (the index of its closing delimiter), or -1. */
function partEnd(script: string, from: number, delimiter: string): number {
  for (let i = from; i < script.length; i += 1) {
    const ch = script[i];
    if (ch === '\\') i += 1;
    else if (ch === delimiter) return i;
    else if (ch === '\n') return -1;
  }
  return -1;
}

/** One `s` command at `start`: its pattern, replacement and flags, and where it ends. */
interface Substitution {
  readonly pattern: string;
  readonly replacement: string;
  readonly flags: string;
  readonly end: number;
}

/** The `s` command at `start` (delimiter: any punctuation but `\`), or null. */
function substitutionAt(script: string, start: number): Substitution | null {
  if (script[start] !== 's') return null;
  const delimiter = script[start + 1] ?? '';
  if (!/^[/|#,!:@%+~^]$/.test(delimiter)) return null;
  const middle = partEnd(script, start + 2, delimiter);
  const last = middle < 0 ? -1 : partEnd(script, middle + 1, delimiter);
  if (last < 0) return null;
  const flags = /^[A-Za-z0-9]*/.exec(script.slice(last + 1))?.[0] ?? '';
  return {
    pattern: script.slice(start + 2, middle),
    replacement: script.slice(middle + 1, last),
    flags,
    end: last + 1 + flags.length,
  };
}

/** The script as its substitutions, separated by `;` or newlines (blanks around them), or null. */
function substitutions(script: string, address: RegExp): Substitution[] | null {
  const found: Substitution[] = [];
  let i = 0;
  for (;;) {
    while (/[\s;]/.test(script[i] ?? '')) i += 1;
    if (i >= script.length) return found.length > 0 ? found : null;
    const lines = address.exec(script.slice(i))?.[0] ?? '';
    const one = substitutionAt(script, i + lines.length);
    if (one === null) return null;
    found.push(one);
    i = one.end;
    if (i < script.length && !/[\s;]/.test(script[i] ?? '')) return null;
  }
}

/**
 * A sed script of plain substitutions, each with an optional line address (`3`, `2,5`, `$`):
 * flags only g, i, I, or a count (never `e`, which runs the pattern space, `w`/`W`, which write
 * another file, `p`, `m`/`M`); no other command (`r`, `w`, `e`, `R`, `W`, braces, comments).
 */
export function isSedSubstitution(script: string): boolean {
  const found = substitutions(script, /^(?:\d+|\$)(?:,(?:\d+|\$))?/);
  return found !== null && found.every((one) => /^(?:g|i|I|\d)*$/.test(one.flags));
}

/**
 * One perl substitution (`s/old/new/g`, as `perl -pi -e` runs it on each line) that runs no
 * code: flags g, i, m, s, x only (never `e`, `ee`, which evaluate the replacement); no `@` or
 * backtick anywhere and no `(?` group (they interpolate or run code); a `$` only as the
 * pattern's end anchor or, in the replacement, a capture (`$1`, `$&`).
 */
export function isPerlSubstitution(script: string): boolean {
  const found = substitutions(script, /^/);
  if (found === null || found.length !== 1) return false;
  const [one] = found as [Substitution];
  if (!/^[gimsx]*$/.test(one.flags)) return false;
  if (/[@`]|\(\?/.test(one.pattern + one.replacement)) return false;
  if (/\$(?![)|]|$)/.test(one.pattern)) return false;
  return !/\$(?![0-9&])/.test(one.replacement);
}
