// The guard: encoded, non-negotiable, fail-closed. Forbidden paths anywhere in the args and
// dangerous shell on the parsed command. Reasons name the rule, never the matched text: they go
// to the audit log, which must never hold an argument value.
import { dangerousShellRule, type ShellView } from '../../constitution/dangerous-shell.ts';
import {
  DEVICE_METADATA_COMMANDS,
  FORBIDDEN_PATHS,
  forbiddenPathRule,
  type ForbiddenPath,
} from '../../constitution/forbidden-paths.ts';
import { parseShell } from '../shell/parse.ts';
import type { ParsedShell, ShellCommand, ShellWord } from '../shell/types.ts';
import { normalizePath } from './normalize-path.ts';
import { globMatcher, pathTokens, wordValues } from './guard-text.ts';

export type GuardResult =
  { blocked: false; signals: string[] } | { blocked: true; reason: string; signals: string[] };

export interface GuardInput {
  readonly executor: string;
  readonly args: unknown;
  /** Name of the top-level arg that holds a shell command line (shell_exec's `command`). */
  readonly commandArg?: string;
  readonly home: string;
  /** The command line already parsed by the caller (one parse per call); parsed here otherwise. */
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
  const matches = globMatcher(normalizePath(value, home));
  for (const rule of FORBIDDEN_PATHS) {
    for (const sample of rule.samples) {
      const path = normalizePath(sample, home);
      const segments = path.split('/');
      for (let end = segments.length; end > 1; end -= 1) {
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

function checkShell(parsed: ParsedShell, home: string): Blocked | null {
  const raw = scanText(parsed.source, home);
  if (raw) return raw;
  const values = wordValues(parsed, home);
  const view: ShellView = {
    parsed,
    home,
    paths: (word) => values(word).map((v) => normalizePath(v, home)),
  };
  for (const command of parsed.commands) {
    const devicesMatter = command.binary === null || !DEVICE_METADATA_COMMANDS.has(command.binary);
    for (const word of commandWords(command)) {
      for (const value of values(word)) {
        const hit =
          scanText(value, home) ??
          (devicesMatter ? scanWhole(value, home) : null) ??
          (word.glob ? scanGlob(value, home) : null);
        if (hit) return hit;
      }
    }
  }
  const danger = dangerousShellRule(view);
  return danger ? new Blocked(`dangerous shell: ${danger.name}`, 'dangerous shell') : null;
}

function checkValue(
  value: unknown,
  key: string | null,
  input: GuardInput,
  depth: number,
): Blocked | null {
  if (depth > MAX_DEPTH)
    return new Blocked('guard: arguments nested too deeply to check', 'guard error');
  if (typeof value === 'string') {
    if (depth === 1 && key !== null && key === input.commandArg) {
      return checkShell(input.parsed ?? parseShell(value), input.home);
    }
    return scanText(value, input.home) ?? scanWhole(value, input.home);
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      const hit = checkValue(item, null, input, depth + 1);
      if (hit) return hit;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      // Keys can carry paths too ({"/etc/shadow": ...}).
      const hit = scanText(k, input.home) ?? checkValue(v, k, input, depth + 1);
      if (hit) return hit;
    }
  }
  return null;
}

/** Decide whether a proposed call is forbidden outright. Anything thrown inside blocks ("guard error"). */
export function guardCall(input: GuardInput): GuardResult {
  try {
    const hit = checkValue(input.args, null, input, 0);
    if (hit) return { blocked: true, reason: hit.reason, signals: [hit.signal] };
    return { blocked: false, signals: [] };
  } catch {
    return { blocked: true, reason: 'guard error', signals: ['guard error'] };
  }
}
