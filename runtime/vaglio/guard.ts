// The guard: encoded, non-negotiable, fail-closed. Forbidden paths anywhere in the args and
// dangerous shell on the parsed command. Reasons name the rule, never the matched text: they go
// to the audit log, which must never hold an argument value.
import {
  dangerousShellRule,
  isCriticalTree,
  type ShellView,
} from '../../constitution/dangerous-shell.ts';
import {
  DEVICE_METADATA_COMMANDS,
  FORBIDDEN_PATHS,
  forbiddenPathRule,
  type ForbiddenPath,
} from '../../constitution/forbidden-paths.ts';
import { openedInside } from '../../constitution/opened-inside.ts';
import { parseShell } from '../shell/parse.ts';
import type { ParsedShell, ShellCommand, ShellWord } from '../shell/types.ts';
import { normalizePath } from './normalize-path.ts';
import { MAX_GLOB_WILDCARDS, globMatcher, pathTokens, wordValues } from './guard-text.ts';

/** The guard's answer: blocked with a rule-naming reason, or passed; signals feed the judges. */
export type GuardResult =
  { blocked: false; signals: string[] } | { blocked: true; reason: string; signals: string[] };

/** One proposed call as the guard sees it. */
export interface GuardInput {
  readonly executor: string;
  readonly args: unknown;
  /** Name of the top-level arg that holds a shell command line (shell_exec's `command`). */
  readonly commandArg?: string;
  readonly home: string;
  /** The command line already parsed by the caller (one parse per call); used only if its source matches. */
  readonly parsed?: ParsedShell | null;
}

const SECRET: ReadonlySet<ForbiddenPath['kind']> = new Set(['secret']);
const DEVICE: ReadonlySet<ForbiddenPath['kind']> = new Set(['device']);
// Walking a hostile args object must end: deeper nesting than this is blocked.
const MAX_DEPTH = 32;

class Blocked {
  constructor(
    readonly reason: string,
    readonly signal: string,
  ) {}
}

function forbidden(rule: ForbiddenPath): Blocked {
  return new Blocked(`forbidden path: ${rule.name}`, 'forbidden path');
}

/** Secret families anywhere inside a text (prose, code, options like --file=/etc/shadow). */
function scanText(text: string, home: string): Blocked | null {
  for (const token of pathTokens(text, home)) {
    const rule = forbiddenPathRule(token, SECRET);
    if (rule) return forbidden(rule);
  }
  return null;
}

/** A whole value that is itself a path (or `key=path`): devices count here, not inside prose. */
function scanWhole(value: string, home: string): Blocked | null {
  const eq = value.indexOf('=');
  const candidates = eq > 0 ? [value, value.slice(eq + 1)] : [value];
  for (const candidate of candidates) {
    const rule = forbiddenPathRule(normalizePath(candidate.trim(), home), DEVICE);
    if (rule) return forbidden(rule);
  }
  return null;
}

/** A glob that could expand to a forbidden path: tried on each rule's samples and their forbidden parents. */
function scanGlob(value: string, home: string): Blocked | null {
  if ((value.match(/[*?[]/g) ?? []).length > MAX_GLOB_WILDCARDS) {
    return new Blocked('guard: glob too complex to check', 'guard error');
  }
  const matches = globMatcher(normalizePath(value, home));
  for (const rule of FORBIDDEN_PATHS) {
    for (const sample of rule.samples) {
      const path = normalizePath(sample, home);
      const segments = path.split('/');
      // Top-level directories alone (/root, /sys from `ls /*`) are listings, not reads of their files.
      for (let end = segments.length; end > 2; end -= 1) {
        const candidate = segments.slice(0, end).join('/');
        if (rule.pattern.test(candidate) && matches(candidate)) return forbidden(rule);
      }
    }
  }
  return null;
}

function commandWords(command: ShellCommand): ShellWord[] {
  return [
    ...(command.name ? [command.name] : []),
    ...command.args,
    ...command.wrappers.flatMap((w) => w.args),
    ...command.assignments.map((a) => a.value),
    ...command.redirects.flatMap((r) => (r.target ? [r.target] : [])),
  ];
}

// A bound on the directories one command may run in (a cd with several possible targets multiplies them).
const MAX_CWDS = 8;

/** The directories each command may run in, following `cd` in order; a cd lasts in its own shell only. */
function workingDirs(
  parsed: ParsedShell,
  values: (word: ShellWord) => readonly string[],
  home: string,
  start: string,
): Map<ShellCommand, readonly string[]> {
  const out = new Map<ShellCommand, readonly string[]>();
  const byScope = new Map<string, readonly string[]>([['', [start]]]);
  // A child shell starts where its parent was when its first command ran.
  const dirsFor = (scope: readonly number[]): readonly string[] => {
    for (let n = scope.length; n >= 0; n -= 1) {
      const found = byScope.get(scope.slice(0, n).join('.'));
      if (found) return found;
    }
    return [start];
  };
  for (const command of parsed.commands) {
    const key = command.scope.join('.');
    const current = dirsFor(command.scope);
    byScope.set(key, current);
    out.set(command, current);
    if (command.binary !== 'cd' && command.binary !== 'pushd') continue;
    const target = command.args.find((a) => !a.text.startsWith('-'));
    const texts = target === undefined ? [home] : values(target);
    const moved = new Set<string>();
    for (const base of current) {
      for (const text of texts) {
        const path = text === '' ? base : normalizePath(text, home);
        moved.add(path.startsWith('/') ? path : normalizePath(`${base}/${path}`, home));
      }
    }
    byScope.set(key, [...moved].slice(0, MAX_CWDS));
  }
  return out;
}

/** `$CMD -rf /` with CMD='rm' known: the same command with its name substituted, for the rules. */
function namedShadows(
  parsed: ParsedShell,
  values: (word: ShellWord) => readonly string[],
): ShellCommand[] {
  const shadows: ShellCommand[] = [];
  for (const command of parsed.commands) {
    if (command.name === null || command.binary !== null) continue;
    for (const value of values(command.name).slice(0, 8)) {
      const [head, ...rest] = value.trim().split(/\s+/);
      if (head === undefined || head === '') continue;
      const binary = head.slice(head.lastIndexOf('/') + 1);
      const extra = rest.map((text) => ({
        text,
        literal: true,
        glob: false,
        parts: [{ kind: 'text' as const, text }],
      }));
      shadows.push({ ...command, binary, args: [...extra, ...command.args] });
    }
  }
  return shadows;
}

/** A directory operand joined with the name the program opens in it (`diff /etc shadow`), if forbidden. */
function openedInsideHit(
  parsed: ParsedShell,
  paths: (word: ShellWord) => readonly string[],
  values: (word: ShellWord) => readonly string[],
  home: string,
): Blocked | null {
  for (const command of parsed.commands) {
    for (const { dir, name, whole } of openedInside(command)) {
      const bases = paths(dir).filter((p) => p.startsWith('/'));
      for (const value of bases.length === 0 ? [] : values(name)) {
        const normal = normalizePath(value, home);
        const tail = whole ? normal : normal.slice(normal.lastIndexOf('/') + 1);
        for (const base of bases) {
          const rule = forbiddenPathRule(normalizePath(`${base}/${tail}`, home), SECRET);
          if (rule) return forbidden(rule);
        }
      }
    }
  }
  return null;
}

/** What a shell call says besides its text: shell_exec's `args` ($1...) and `cwd`. */
interface ShellSiblings {
  readonly positional: readonly string[];
  readonly cwd: string;
}

// shell_exec runs in ~ unless told otherwise, so `rm -rf *` alone empties the home.
const DEFAULT_SHELL_CWD = '~';

function siblingsOf(args: unknown): ShellSiblings {
  if (args === null || typeof args !== 'object') return { positional: [], cwd: DEFAULT_SHELL_CWD };
  const record = args as Record<string, unknown>;
  const positional =
    Object.hasOwn(record, 'args') && Array.isArray(record.args)
      ? record.args.filter((a) => typeof a === 'string')
      : [];
  const cwd =
    Object.hasOwn(record, 'cwd') && typeof record.cwd === 'string' ? record.cwd : DEFAULT_SHELL_CWD;
  return { positional, cwd };
}

function checkShell(parsed: ParsedShell, home: string, siblings: ShellSiblings): Blocked | null {
  const raw = scanText(parsed.source, home);
  if (raw) return raw;
  const values = wordValues(parsed, home, siblings.positional);
  const given = normalizePath(siblings.cwd, home);
  const start = given.startsWith('/') ? given : normalizePath(`${home}/${given}`, home);
  const dirsOf = workingDirs(parsed, values, home, start);
  const wordDirs = new Map<ShellWord, readonly string[]>();
  for (const command of parsed.commands) {
    for (const word of commandWords(command)) wordDirs.set(word, dirsOf.get(command) ?? [start]);
  }
  // Words the rules make up (the file of dd's of=...) may run in any directory seen.
  const anyDir = [...new Set([...dirsOf.values()].flat())];
  const pathCache = new Map<ShellWord, string[]>();
  const paths = (word: ShellWord): string[] => {
    const cached = pathCache.get(word);
    if (cached) return cached;
    const out = values(word).flatMap((v) => {
      // An empty word names nothing (rm -rf "$UNSET" removes nothing).
      if (v === '') return [];
      const path = normalizePath(v, home);
      if (path.startsWith('/')) return [path];
      const dirs = wordDirs.get(word) ?? anyDir;
      return [path, ...dirs.map((dir) => normalizePath(`${dir}/${path}`, home))];
    });
    pathCache.set(word, out);
    return out;
  };
  // Scripts repeat the same words ("$line", "$pid"): each distinct text is scanned once.
  const scanned = new Set<string>([parsed.source]);
  for (const command of parsed.commands) {
    const devicesMatter = command.binary === null || !DEVICE_METADATA_COMMANDS.has(command.binary);
    for (const word of commandWords(command)) {
      for (const value of values(word)) {
        if (scanned.has(value)) continue;
        scanned.add(value);
        const hit = scanText(value, home);
        if (hit) return hit;
      }
      for (const path of paths(word)) {
        const secret = forbiddenPathRule(path, SECRET);
        const hit =
          (secret ? forbidden(secret) : null) ??
          (devicesMatter ? scanWhole(path, home) : null) ??
          (word.glob ? scanGlob(path, home) : null);
        if (hit) return hit;
      }
    }
  }
  const inside = openedInsideHit(parsed, paths, values, home);
  if (inside) return inside;
  const shadows = namedShadows(parsed, values);
  const view: ShellView = {
    parsed:
      shadows.length === 0 ? parsed : { ...parsed, commands: [...parsed.commands, ...shadows] },
    home,
    paths,
  };
  const danger = dangerousShellRule(view);
  return danger ? new Blocked(`dangerous shell: ${danger.name}`, 'dangerous shell') : null;
}

function checkValue(
  value: unknown,
  key: string | null,
  input: GuardInput,
  depth: number,
  notes: Set<string>,
): Blocked | null {
  if (depth > MAX_DEPTH)
    return new Blocked('guard: arguments nested too deeply to check', 'guard error');
  if (typeof value === 'string') {
    if (depth === 1 && key !== null && key === input.commandArg) {
      // A parse of some other text (a caller's bug) must not stand in for this one.
      const given = input.parsed;
      const parsed =
        given !== undefined && given !== null && given.source === value ? given : parseShell(value);
      if (parsed.errors) notes.add('shell did not parse');
      return checkShell(parsed, input.home, siblingsOf(input.args));
    }
    return scanText(value, input.home) ?? scanWhole(value, input.home);
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      const hit = checkValue(item, null, input, depth + 1, notes);
      if (hit) return hit;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      // Keys can carry paths too ({"/etc/shadow": ...}).
      const hit = scanText(k, input.home) ?? checkValue(v, k, input, depth + 1, notes);
      if (hit) return hit;
    }
  }
  return null;
}

// Executors that delete what their path argument names (Law 1 holds for them as for rm -rf).
const DELETING_EXECUTORS: ReadonlyMap<string, string> = new Map([['fs_delete', 'path']]);

function checkDelete(input: GuardInput): Blocked | null {
  const key = DELETING_EXECUTORS.get(input.executor);
  if (key === undefined || input.args === null || typeof input.args !== 'object') return null;
  const record = input.args as Record<string, unknown>;
  const path = Object.hasOwn(record, key) ? record[key] : undefined;
  if (
    typeof path !== 'string' ||
    !isCriticalTree(normalizePath(path.trim(), input.home), input.home)
  )
    return null;
  return new Blocked('irrecoverable delete: / or a home or system tree', 'dangerous delete');
}

/** Decide whether a proposed call is forbidden outright. Anything thrown inside blocks ("guard error"). */
export function guardCall(input: GuardInput): GuardResult {
  try {
    // Notes become signals for the judges: an unparsable line passed on raw-text checks alone.
    const notes = new Set<string>();
    const hit = checkValue(input.args, null, input, 0, notes) ?? checkDelete(input);
    if (hit) return { blocked: true, reason: hit.reason, signals: [hit.signal, ...notes] };
    return { blocked: false, signals: [...notes] };
  } catch {
    return { blocked: true, reason: 'guard error', signals: ['guard error'] };
  }
}
