// `for f in *.jpg; do mv "$f" "photo-$f"; done`, `for f in *.md; do wc -l "$f"; done`: a loop
// over the files a glob matches now is judged as the line it unrolls to, one body per match
// with the variable replaced by that match (`mv "a.jpg" "photo-a.jpg"` …), so the tiers judge
// every iteration and all of them together (two iterations writing one name overlap and ask).
// Only where the replacement is exact: the values plain names, the variable used plainly.
import { basename } from 'node:path';
import { parseShell } from '../../shell/parse.ts';
import type { ForLoop, ParsedShell } from '../../shell/types.ts';
import { shellWorkingDirectory } from '../scope-paths.ts';
import type { TierAnswer, TierContext } from './index.ts';

/** Most iterations a decision unrolls; a longer loop asks. */
const MAX_ITERATIONS = 200;
/** A word after `in` read as written: no quote, `$`, `~`, brace or bracket. */
const PLAIN_WORD = /^[A-Za-z0-9_./*?+@%:-]+$/;
/**
 * A value that reads the same pasted into the body's text as expanded from the variable, quoted
 * or not: no quote, `$`, backslash, glob, brace, `~`, `#`, `=` or control character; spaces
 * split an unquoted word in both.
 */
const PLAIN_VALUE = /^[A-Za-z0-9_.+@%:][A-Za-z0-9_.+@%: -]*$/;

/** The values the loop walks now (globs expanded from `cwd`), or null when not plainly known. */
function loopValues(loop: ForLoop, cwd: string, ctx: TierContext): string[] | null {
  const values: string[] = [];
  for (const word of loop.values) {
    if (!PLAIN_WORD.test(word)) return null;
    const prefix = word.slice(0, word.lastIndexOf('/') + 1);
    if (!/[*?]/.test(word)) values.push(word);
    else if (/[*?]/.test(prefix)) return null;
    else {
      const matches = ctx.paths.globMatches(ctx.paths.absolute(word, cwd));
      if (matches === null) return null;
      // No match: bash walks the pattern itself, which is no plain value.
      values.push(...(matches.length === 0 ? [word] : matches.map((m) => prefix + basename(m))));
    }
    if (values.length > MAX_ITERATIONS) return null;
  }
  return values.every((value) => PLAIN_VALUE.test(value)) ? values : null;
}

/**
 * The body with every plain use of the variable (`$f`, `${f}`, quoted or not; never inside
 * single quotes) replaced by `value`; null when the body substitutes a command.
 */
function bodyWith(body: string, variable: string, value: string): string | null {
  if (/`|\$\(/.test(body)) return null;
  const use = new RegExp(`^\\$(?:${variable}(?![A-Za-z0-9_])|\\{${variable}\\})`);
  let out = '';
  let quote = '';
  for (let i = 0; i < body.length; i += 1) {
    const ch = body[i] as string;
    const used = quote !== "'" && ch === '$' ? use.exec(body.slice(i)) : null;
    if (used !== null) {
      out += value;
      i += used[0].length - 1;
      continue;
    }
    if (quote !== "'" && ch === '\\') {
      out += body.slice(i, i + 2);
      i += 1;
      continue;
    }
    if (ch === "'" && quote !== '"') quote = quote === "'" ? '' : "'";
    else if (ch === '"' && quote !== "'") quote = quote === '"' ? '' : '"';
    out += ch;
  }
  return out;
}

/** The loop as the line of its iterations, each body one simple command; null when it is not. */
function unrolled(loop: ForLoop, values: readonly string[]): ParsedShell | null {
  const bodies = values.map((value) => bodyWith(loop.body, loop.variable, value));
  if (bodies.some((body) => body === null)) return null;
  const line = parseShell(bodies.join('\n'));
  const one = parseShell(loop.body);
  if (line.errors || one.errors || one.commands.length !== 1) return null;
  return line.commands.length === values.length ? line : null;
}

/**
 * The tiers' answer for a line that is one `for` loop over plain names, judged as its unrolled
 * iterations by `judge` (the tiers that decide from the line); null when it asks.
 */
export function forEachMatchAnswer(
  parsed: ParsedShell,
  ctx: TierContext,
  judge: (line: ParsedShell, ctx: TierContext) => TierAnswer | null,
): TierAnswer | null {
  const loop = parsed.forLoop;
  if (loop === null || parsed.errors) return null;
  const { paths } = ctx;
  const cwd = shellWorkingDirectory(ctx.args, paths.home, paths.realHome, ctx.realPath);
  const values = loopValues(loop, cwd, ctx);
  const line = values === null || values.length === 0 ? null : unrolled(loop, values);
  const answer = line === null ? null : judge(line, ctx);
  if (answer === null) return null;
  const each = `for each of ${String(values?.length ?? 0)}`;
  if (answer.readOnlyRule !== null)
    return {
      ...answer,
      readOnlyRule: `${each}: ${answer.readOnlyRule}`,
      signals: [`read-only: ${each}: ${answer.readOnlyRule}`],
    };
  const { workspace } = answer;
  if (workspace === null || workspace.tier !== 'workspace') return null;
  const rule = `${each}: ${workspace.rule}`;
  return { ...answer, workspace: { ...workspace, rule }, signals: [`workspace: ${rule}`] };
}
