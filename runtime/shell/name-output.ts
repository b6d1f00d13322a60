// Commands whose output is one plain name: the date in a chosen format, the user, the host,
// the kernel. `notes-$(date +%F).md` stays one word naming one file beside its neighbours:
// no `/`, no blank (no word splitting), no glob character, never starting with `.` or `-`.
// Each is described by a glob its output always matches (`????-??-??` for +%F), so the tiers
// judge the word as a pattern (tiers/name-substitution.ts).
import type { ShellWord } from './types.ts';

// date's conversions whose output is digits, `:`, `-` or `+`, as the glob of their output; the
// locale's own formats (%c, %x, %X, %r), names (%a, %b), blank-padded ones (%e, %k, %l) and %D
// (with `/`) are not here.
const DATE_CONVERSIONS: Readonly<Record<string, string>> = {
  Y: '????',
  G: '????',
  C: '??',
  y: '??',
  g: '??',
  m: '??',
  d: '??',
  H: '??',
  I: '??',
  M: '??',
  S: '??',
  V: '??',
  U: '??',
  W: '??',
  j: '???',
  u: '?',
  w: '?',
  N: '?????????',
  z: '?????',
  s: '*',
  F: '????-??-??',
  T: '??:??:??',
  R: '??:??',
  '%': '%',
};
const NAME_TEXT = /^[A-Za-z0-9_:,.+=@-]$/;

/** The glob of what `date +FORMAT` prints, or null when it may print more than a plain name. */
function formatPattern(format: string): string | null {
  if (/^[.-]/.test(format)) return null;
  let pattern = '';
  for (let i = 0; i < format.length; i += 1) {
    const c = format[i] as string;
    if (c === '%') {
      i += 1;
      const conversion = DATE_CONVERSIONS[format[i] ?? ''];
      if (conversion === undefined) return null;
      pattern += conversion;
    } else if (NAME_TEXT.test(c)) pattern += c;
    else return null;
  }
  return pattern === '' ? null : pattern;
}

const ISO_8601: Readonly<Record<string, string>> = {
  date: '????-??-??',
  hours: '????-??-??T??+??:??',
  minutes: '????-??-??T??:??+??:??',
  seconds: '????-??-??T??:??:??+??:??',
  ns: '????-??-??T??:??:??,?????????+??:??',
};

/** date's `-r FILE` and the words after it; null without one. */
function dateReference(args: readonly string[]): { file: string; rest: readonly string[] } | null {
  const rest = args[0] === '-u' || args[0] === '--utc' ? args.slice(1) : args;
  const [option, file] = rest;
  if (option === '-r' && file !== undefined && !file.startsWith('-'))
    return { file, rest: rest.slice(2) };
  if (option?.startsWith('--reference=') === true && option.length > 12)
    return { file: option.slice(12), rest: rest.slice(1) };
  return null;
}

/**
 * The file whose time `date -r FILE FORMAT` prints (a stat, nothing read); null for another
 * command. date prints nothing when FILE is missing, so the caller must see that it is there.
 */
export function referencedFile(name: ShellWord, args: readonly ShellWord[]): string | null {
  return name.text === 'date' ? (dateReference(args.map((arg) => arg.text))?.file ?? null) : null;
}

/** `date [-u] [-r FILE] FORMAT`: the time now, or FILE's last change. */
function datePattern(args: readonly string[]): string | null {
  const reference = dateReference(args);
  const rest = reference?.rest ?? (args[0] === '-u' || args[0] === '--utc' ? args.slice(1) : args);
  const [format, ...more] = rest;
  if (format === undefined || more.length > 0) return null;
  if (format.startsWith('+')) return formatPattern(format.slice(1));
  const iso = /^(?:-I|--iso-8601=?)(date|hours|minutes|seconds|ns)?$/.exec(format);
  return iso === null ? null : (ISO_8601[iso[1] ?? 'date'] ?? null);
}

/** A name as a glob that matches only itself: no blank, glob character, `/`, or leading `.`/`-`. */
function exactName(name: string): string | null {
  return /^[A-Za-z0-9_+@%:,=][A-Za-z0-9_.+@%:,=-]*$/.test(name) ? name : null;
}

/** `basename PATH [SUFFIX]` (and `--`): computed now, as coreutils does, for a path without a trailing `/`. */
function basenamePattern(args: readonly string[]): string | null {
  const [path, suffix, ...more] = args[0] === '--' ? args.slice(1) : args;
  if (path === undefined || more.length > 0 || path.startsWith('-') || path.endsWith('/'))
    return null;
  const base = path.slice(path.lastIndexOf('/') + 1);
  const cut =
    suffix !== undefined && suffix !== '' && base !== suffix && base.endsWith(suffix)
      ? base.slice(0, -suffix.length)
      : base;
  return exactName(cut);
}

/** `dirname PATH` (and `--`) of a relative path without a trailing `/`, whose parent is a name: computed now. */
function dirnamePattern(args: readonly string[]): string | null {
  const [path, ...more] = args[0] === '--' ? args.slice(1) : args;
  if (path === undefined || more.length > 0 || path.startsWith('-') || path.endsWith('/'))
    return null;
  const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '.';
  return parent === '.' || parent.includes('/') ? null : exactName(parent);
}

/** The forms of each command that print one name, as the glob of their output. */
const NAME_PRINTERS: ReadonlyMap<string, (args: readonly string[]) => string | null> = new Map([
  ['date', datePattern],
  ['whoami', (args) => (args.length === 0 ? '*' : null)],
  [
    'id',
    (args) => (args.length === 1 && /^-(?:u|g|un|nu|gn|ng)$/.test(args[0] ?? '') ? '*' : null),
  ],
  [
    'hostname',
    (args) => (args.length === 0 || (args.length === 1 && args[0] === '-s') ? '*' : null),
  ],
  ['uname', (args) => (args.length <= 1 && /^(?:-[smrno])?$/.test(args[0] ?? '') ? '*' : null)],
  ['nproc', (args) => (args.length === 0 ? '*' : null)],
  ['basename', basenamePattern],
  ['dirname', dirnamePattern],
]);

/**
 * The glob that what the command prints always matches, when, as written, it prints one plain
 * name (see above) and does nothing else; null otherwise.
 */
export function nameOutputPattern(name: ShellWord, args: readonly ShellWord[]): string | null {
  if (!name.literal || !args.every((arg) => arg.literal)) return null;
  const printer = NAME_PRINTERS.get(name.text);
  return printer === undefined ? null : printer(args.map((arg) => arg.text));
}

/** A revision as written: a name, hash or `HEAD~2`, never an option, a path (`:`) or a peel (`{`). */
const REVISION = /^[A-Za-z0-9_@][A-Za-z0-9_./@^~-]*$/;
/** rev-list options that choose which commits, never what is printed for each. */
const REV_LIST_FLAGS =
  /^(?:-[0-9]+|-n[0-9]*|--max-count=[0-9]+|--first-parent|--no-merges|--merges|--reverse|--all|--branches|--tags|--(?:since|until|after|before)=[A-Za-z0-9 :.+-]+)$/;

function revListNames(args: readonly string[]): boolean {
  let paths = false;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    if (paths) continue;
    if (arg === '--') paths = true;
    else if (arg === '-n' && /^[0-9]+$/.test(args[i + 1] ?? '')) i += 1;
    else if (!REV_LIST_FLAGS.test(arg) && !REVISION.test(arg)) return false;
  }
  return true;
}

/** `git rev-parse [--verify] [-q] [--short[=N]] REV`: one revision, which it prints as a hash or not at all. */
function revParseNames(args: readonly string[]): boolean {
  const revisions = args.filter(
    (arg) => !/^(?:--verify|-q|--quiet|--short(?:=[0-9]+)?)$/.test(arg),
  );
  return revisions.length === 1 && REVISION.test(revisions[0] as string);
}

const OBJECT_NAME_PRINTERS: ReadonlyMap<string, (args: readonly string[]) => boolean> = new Map([
  ['rev-list', revListNames],
  ['rev-parse', revParseNames],
  [
    'merge-base',
    (args) => {
      const revisions = args[0] === '--all' ? args.slice(1) : args;
      return revisions.length >= 2 && revisions.every((arg) => REVISION.test(arg));
    },
  ],
]);

/**
 * True when the command, as written, prints only git commit names (hex, one a line, maybe none):
 * `git rev-list -n 1 HEAD -- test`, `git rev-parse HEAD`, `git merge-base main HEAD`. Each is a
 * word no shell splits further or expands, and never an option.
 */
export function printsObjectNames(name: ShellWord, args: readonly ShellWord[]): boolean {
  if (name.text !== 'git' || !name.literal || !args.every((arg) => arg.literal)) return false;
  const [subcommand, ...rest] = args.map((arg) => arg.text);
  const printer = OBJECT_NAME_PRINTERS.get(subcommand ?? '');
  return printer !== undefined && printer(rest);
}
