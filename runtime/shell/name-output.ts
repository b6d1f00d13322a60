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

function datePattern(args: readonly string[]): string | null {
  const rest = args[0] === '-u' || args[0] === '--utc' ? args.slice(1) : args;
  const [format, ...more] = rest;
  if (format === undefined || more.length > 0) return null;
  if (format.startsWith('+')) return formatPattern(format.slice(1));
  const iso = /^(?:-I|--iso-8601=?)(date|hours|minutes|seconds|ns)?$/.exec(format);
  return iso === null ? null : (ISO_8601[iso[1] ?? 'date'] ?? null);
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
