// The values of a run-time piece the guard can work out at decision time: a known variable
// through a written operator (`${HOME%/}` is the home), or a command whose output follows from
// its words (`$(pwd)`, `$(dirname ~/x)`, `$(realpath .)`). Where an operator on a known value is
// not read here (`${HOME%"$x"}`, `${HOME%@(x)}`), the piece may be that value or any directory
// above it: those are its values too, beside the unknown ones, so a delete of what could be the
// home is judged as one. A value that is unknown stays unknown through dirname and the like.
import type { Derivation, ShellWord } from '../shell/types.ts';
import { normalizePath } from './normalize-path.ts';
import { applyOperator } from './parameter-operators.ts';

/** What a derivation is computed against. */
export interface DerivationScope {
  readonly vars: ReadonlyMap<string, readonly string[]>;
  readonly home: string;
  /** The directories the line may run in. */
  readonly pwd: readonly string[];
  /** The values a word inside the derivation can take. */
  readonly values: (word: ShellWord) => readonly string[];
}

/** An unknown piece: empty, or some name. */
export const UNKNOWN: readonly string[] = ['', 'unknown'];

const isUnknown = (value: string): boolean => UNKNOWN.includes(value);

/** An absolute path and every directory above it (`/a/b`: /a/b, /a, /). */
function withAncestors(value: string, home: string): string[] {
  const path = normalizePath(value, home);
  if (!path.startsWith('/')) return [value];
  const out = [value];
  for (let p = path; p !== '/'; p = p.slice(0, p.lastIndexOf('/')) || '/') out.push(p);
  out.push('/');
  return out;
}

/** Not plainly known: unknown, or any of the known inputs or a directory above one. */
function couldBe(inputs: readonly string[], home: string): string[] {
  return [...new Set([...UNKNOWN, ...inputs.flatMap((v) => withAncestors(v, home))])];
}

const tildeExpanded = (value: string, home: string): string => value.replace(/^~(?=\/|$)/, home);

/** POSIX dirname: the last name and the slashes around it removed. */
function dirnameOf(value: string): string {
  const trimmed = value.replace(/\/+$/, '');
  if (trimmed === '') return value.startsWith('/') ? '/' : '.';
  const slash = trimmed.lastIndexOf('/');
  if (slash < 0) return '.';
  return trimmed.slice(0, slash).replace(/\/+$/, '') || '/';
}

function basenameOf(value: string): string {
  const trimmed = value.replace(/\/+$/, '');
  return trimmed === ''
    ? value.startsWith('/')
      ? '/'
      : ''
    : trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** Where a path leads without its links resolved: absolute, `.` and `..` undone. */
function absoluteOf(value: string, scope: DerivationScope): string[] {
  const path = normalizePath(value, scope.home);
  if (path.startsWith('/')) return [path];
  return scope.pwd.map((dir) => normalizePath(`${dir}/${path}`, scope.home));
}

// Options these programs take that change nothing about the path they print.
const PLAIN_OPTIONS =
  /^-[LPzsqemef]+$|^-[1aA]+$|^--(?:zero|logical|physical|canonicalize(?:-existing|-missing)?|quiet|silent)$/;

/** What a command prints, where it follows from its words alone; null when it does not. */
function commandOutput(words: readonly ShellWord[], scope: DerivationScope): string[] | null {
  const [name, ...args] = words;
  if (name === undefined || !name.literal) return null;
  const operands = args.filter((a) => !(a.literal && PLAIN_OPTIONS.test(a.text)));
  const options = args.filter((a) => !operands.includes(a)).map((a) => a.text);
  // Each operand's output (more than one print a line each: any of them, as far as paths go).
  const each = (f: (value: string) => string[]): string[] | null =>
    operands.length === 0
      ? null
      : operands.flatMap((word) =>
          scope.values(word).flatMap((v) => (isUnknown(v) ? [v] : f(tildeExpanded(v, scope.home)))),
        );
  switch (name.text) {
    case 'pwd':
      return operands.length === 0 && scope.pwd.length > 0 ? [...scope.pwd] : null;
    case 'dirname':
      return each((v) => [dirnameOf(v)]);
    case 'basename':
      return each((v) => [basenameOf(v)]);
    case 'realpath':
    case 'grealpath':
      return each((v) => absoluteOf(v, scope));
    case 'readlink':
      return options.some((o) => /[fem]|canonicalize/.test(o))
        ? each((v) => absoluteOf(v, scope))
        : null;
    case 'ls':
      // Its entries' names, as the directory's entries (what a delete fed them takes, run there).
      if (operands.some((a) => a.text.startsWith('-'))) return null;
      return operands.length === 0
        ? scope.pwd.map((dir) => `${dir}/*`)
        : each((v) => absoluteOf(v, scope).map((dir) => `${dir}/*`));
    case 'echo':
      return args.length > 0 && args.every((a) => !/^-[neE]+$/.test(a.text))
        ? joined(args, scope)
        : null;
    default:
      return null;
  }
}

const MAX_JOINED = 16;

/** The words' values joined by a space, as echo prints them. */
function joined(words: readonly ShellWord[], scope: DerivationScope): string[] {
  let out = [''];
  for (const [i, word] of words.entries()) {
    const sep = i === 0 ? '' : ' ';
    out = out.flatMap((o) => scope.values(word).map((v) => o + sep + v)).slice(0, MAX_JOINED);
  }
  return out;
}

/** The values a derived piece can take (see above). */
export function derivedValues(derivation: Derivation, scope: DerivationScope): string[] {
  if (derivation.from === 'command') return commandOutput(derivation.words, scope) ?? [...UNKNOWN];
  if (derivation.from === 'directory')
    return scope
      .values(derivation.word)
      .flatMap((v) => (isUnknown(v) ? [v] : absoluteOf(tildeExpanded(v, scope.home), scope)));
  const { name, operator } = derivation;
  const values = scope.vars.get(name) ?? UNKNOWN;
  if (operator === null) return couldBe(values, scope.home);
  const results = values.map((v) => applyOperator(v, operator));
  if (results.every((r): r is string => r !== null)) return [...new Set(results)];
  return couldBe(values, scope.home);
}
