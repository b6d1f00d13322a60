// Bash evaluates the subscript of an array name as arithmetic, and arithmetic expands what it
// holds: `printf -v 'a[$(cmd)]' x`, `read 'a[$(cmd)]'` and `[ -v 'a[$(cmd)]' ]` run cmd,
// however the word was quoted. The grammar reads such a word as text; the parse says it
// cannot judge it.
import type { ShellWord } from './types.ts';

/** Builtins whose every operand may be a variable name. */
const NAME_TAKERS: ReadonlySet<string> = new Set([
  'read',
  'mapfile',
  'readarray',
  'unset',
  'getopts',
  'wait',
  'let',
  'declare',
  'typeset',
  'local',
  'export',
  'readonly',
]);
/** Builtins that take a variable name after one option only. */
const NAME_AFTER: ReadonlyMap<string, string> = new Map([
  ['printf', '-v'],
  ['test', '-v'],
  ['[', '-v'],
]);
// A subscript holding an expansion: `[` then `$` or a backquote before the closing `]`.
const EXPANDING_SUBSCRIPT = /\[[^\]]*[$`]/;

/** True when a name operand of this builtin holds a subscript that bash would expand and run. */
export function evaluatesSubscript(binary: string | null, args: readonly ShellWord[]): boolean {
  if (binary === null) return false;
  if (NAME_TAKERS.has(binary)) return args.some((arg) => EXPANDING_SUBSCRIPT.test(arg.text));
  const option = NAME_AFTER.get(binary);
  if (option === undefined) return false;
  return args.some((arg, at) => {
    const joined = arg.text.startsWith(option) && arg.text.length > option.length;
    const name = joined ? arg.text.slice(option.length) : args[at + 1]?.text;
    return (joined || arg.text === option) && name !== undefined && EXPANDING_SUBSCRIPT.test(name);
  });
}
