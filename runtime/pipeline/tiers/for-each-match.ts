// `for f in *.jpg; do mv "$f" "photo-$f"; done`, `for f in *.md; do wc -l "$f"; done`: a loop
// over the files a glob matches now is judged as the line it unrolls to, one body per match
// with the variable replaced by that match (`mv "a.jpg" "photo-a.jpg"` …), so the tiers judge
// every iteration and all of them together (two iterations writing one name overlap and ask).
// Only where the replacement is exact: the values plain names, the variable used plainly.
// The text around the loop stays (`mkdir -p ~/Pictures && { …iterations; }`), a leading `cd`
// folded first; a counter the line sets before the loop (`n=1`) and the body's last statement
// steps (`n=$((n+1))`) is replaced by its value in each iteration.
import { basename } from 'node:path';
import { parseShell } from '../../shell/parse.ts';
import type { ForLoop, ParsedShell } from '../../shell/types.ts';
import { shellWorkingDirectory } from '../scope-paths.ts';
import type { TierAnswer, TierContext } from './index.ts';
import { loopMaySet, SETS_VARIABLES } from './known-variables.ts';
import { foldLeadingCd } from './leading-cd.ts';

/** Most iterations a decision unrolls; a longer loop asks. */
const MAX_ITERATIONS = 200;
/** A word after `in` read as written: no quote, `$`, brace or bracket; `~` only as a leading `~/`. */
const PLAIN_WORD = /^(?:~\/)?[A-Za-z0-9_./*?+@%:-]+$/;
/**
 * A value that reads the same pasted into the body's text as expanded from the variable, quoted
 * or not: no quote, `$`, backslash, glob, brace, `~`, `#`, `=` or control character; spaces
 * split an unquoted word in both.
 */
const PLAIN_VALUE = /^[A-Za-z0-9_.+@%:/][A-Za-z0-9_.+@%:/ -]*$/;

/** The values the loop walks now (globs expanded from `cwd`), or null when not plainly known. */
function loopValues(loop: ForLoop, cwd: string, ctx: TierContext): string[] | null {
  const values: string[] = [];
  for (const written of loop.values) {
    if (!PLAIN_WORD.test(written)) return null;
    // bash expands a leading `~/` in the list; pasted inside quotes it would stay a `~`.
    const word = written.startsWith('~/') ? `${ctx.paths.home}/${written.slice(2)}` : written;
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
 * The body with every plain use of each variable (`$f`, `${f}`, quoted or not; never inside
 * single quotes) replaced by its value; null when the body substitutes a command with backticks,
 * or has single quotes beside a `$(` (inside one they quote again, which this reading does not follow).
 */
function bodyWith(body: string, values: ReadonlyMap<string, string>): string | null {
  if (body.includes('`') || (body.includes('$(') && body.includes("'"))) return null;
  const names = [...values.keys()].join('|');
  const use = new RegExp(`^\\$(?:(${names})(?![A-Za-z0-9_])|\\{(${names})\\})`);
  let out = '';
  let quote = '';
  for (let i = 0; i < body.length; i += 1) {
    const ch = body[i] as string;
    const used = quote !== "'" && ch === '$' ? use.exec(body.slice(i)) : null;
    if (used !== null) {
      out += values.get(used[1] ?? used[2] ?? '') ?? '';
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

/** A counter: `n=$((n+1))`, `((n++))`, `((++n))`, `((n+=1))`; its name, or null. */
function counterStep(statement: string): string | null {
  const step =
    /^([A-Za-z_]\w*)=\$\(\(\s*\1\s*\+\s*1\s*\)\)$/.exec(statement) ??
    /^\(\(\s*(?:([A-Za-z_]\w*)\+\+|\+\+([A-Za-z_]\w*)|([A-Za-z_]\w*)\s*\+=\s*1)\s*\)\)$/.exec(
      statement,
    );
  return step === null ? null : (step[1] ?? step[2] ?? step[3] ?? null);
}

/** The body's one command and a counter it steps, with the text before the loop minus the counter's start. */
interface LoopShape {
  readonly command: string;
  readonly counter: { readonly name: string; readonly start: number } | null;
  readonly before: string;
}

function loopShape(loop: ForLoop, env: NodeJS.ProcessEnv): LoopShape | null {
  const [command, step, ...more] = loop.body;
  if (command === undefined || more.length > 0) return null;
  if (step === undefined) return { command, counter: null, before: loop.before };
  const name = counterStep(step);
  if (name === null || name === loop.variable || !loopMaySet(name, env)) return null;
  // Set once before the loop, to a number, as a statement of its own: `n=1;` or `n=1 &&`. A
  // number as bash counts it: no leading zero, which makes it octal (`08` never steps, `010` is 8).
  const set = new RegExp(`(^|;|&&)\\s*${name}=(0|[1-9][0-9]{0,5})\\s*(;|&&)`, 'g');
  const sets = [...loop.before.matchAll(set)];
  const mentions = loop.before.split(`${name}=`).length - 1;
  const [only] = sets;
  if (only === undefined || sets.length > 1 || mentions > 1) return null;
  // `n=1` always succeeds: what follows it runs after what precedes it as the two connectors
  // say together (`A && n=1 && B` is `A && B`; with a `;` on either side, `A; B`).
  const before = loop.before.replace(set, (_m, open: string, _v, close: string) =>
    open === '' ? '' : open === '&&' && close === '&&' ? '&&' : ';',
  );
  return { command, counter: { name, start: Number(only[2]) }, before };
}

/** Builtins that move the working directory or change how a glob expands, or run other text. */
const GLOB_OR_DIRECTORY: ReadonlySet<string> = new Set([
  'cd',
  'pushd',
  'popd',
  'shopt',
  'builtin',
  'command',
  'alias',
  'enable',
]);

/**
 * True when the text before the loop could make bash walk other values than those expanded now:
 * a directory change, a shell option (`shopt -s dotglob`), a variable (`GLOBIGNORE=`, `IFS=`), a
 * function, or text run as code.
 */
function changesWalk(before: string): boolean {
  // The connector to the loop (`&&`, `||`, `;`) ends the text: without it, the statements.
  const parsed = parseShell(before.replace(/(?:&&|\|\||;|\s)+$/, ''));
  return (
    parsed.errors ||
    parsed.functions.size > 0 ||
    parsed.commands.some(
      (c) =>
        c.binary === null ||
        c.assignments.length > 0 ||
        SETS_VARIABLES.has(c.binary) ||
        GLOB_OR_DIRECTORY.has(c.binary),
    )
  );
}

/** The line with the loop as the group of its iterations, each body one simple command; null when it is not. */
function unrolled(
  loop: ForLoop,
  values: readonly string[],
  env: NodeJS.ProcessEnv,
): ParsedShell | null {
  const shape = loopShape(loop, env);
  if (shape === null || changesWalk(shape.before)) return null;
  const { command, counter } = shape;
  const bodies = values.map((value, i) => {
    const known = new Map([[loop.variable, value]]);
    if (counter !== null) known.set(counter.name, String(counter.start + i));
    return bodyWith(command, known);
  });
  if (bodies.some((body) => body === null)) return null;
  const one = parseShell(command);
  const top = one.commands.filter((c) => c.origin === 'top');
  if (one.errors || top.length !== 1) return null;
  // A builtin that sets variables could change the counter or the loop's variable.
  if (one.commands.some((c) => c.binary === null || SETS_VARIABLES.has(c.binary))) return null;
  const line = parseShell(`${shape.before}{ ${bodies.join('; ')}; }${loop.after}`);
  return line.errors ? null : line;
}

/**
 * The tiers' answer for a line with one `for` loop over plain names, judged as its unrolled
 * iterations by `judge` (the tiers that decide from the line); null when it asks.
 */
export function forEachMatchAnswer(
  parsed: ParsedShell,
  ctx: TierContext,
  judge: (line: ParsedShell, ctx: TierContext) => TierAnswer | null,
): TierAnswer | null {
  if (parsed.forLoop === null || parsed.errors) return null;
  if (![...parsed.loopVariables].every((name) => loopMaySet(name, ctx.env))) return null;
  const { paths } = ctx;
  const given = shellWorkingDirectory(ctx.args, paths.home, paths.realHome, ctx.realPath);
  const { shell, cwd } = foldLeadingCd(parsed, given, paths, ctx.isDirectory);
  const loop = shell.forLoop;
  if (loop === null || shell.errors) return null;
  const values = loopValues(loop, cwd, ctx);
  const line = values === null || values.length === 0 ? null : unrolled(loop, values, ctx.env);
  const answer = line === null ? null : judge(line, { ...ctx, args: { ...ctx.args, cwd } });
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
