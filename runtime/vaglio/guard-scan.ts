// The guard's scans of text for forbidden paths: inside any text (prose, code, options), a whole
// value that is itself a path (devices count here), and globs that could expand to one.
// Shared by the guard's entry (guard.ts) and its shell part (guard-shell.ts).
import {
  FORBIDDEN_PATHS,
  forbiddenPathRule,
  type ForbiddenPath,
} from '../../constitution/forbidden-paths.ts';
import { normalizePath } from './normalize-path.ts';
import { MAX_GLOB_WILDCARDS, globMatcher, pathTokens } from './guard-text.ts';

/** Passed with this signal: a protected path is only mentioned (a pattern, a message, text). */
export const MENTION_SIGNAL = 'protected path mentioned';
/** Passed with this signal: a secret-shaped token would leave the machine. */
export const SECRET_TOKEN_SIGNAL = 'secret-shaped token leaves the machine';
/** Passed with this signal: a file the call reads holds a credential its name does not tell. */
export const STORED_CREDENTIAL_SIGNAL = 'file holds a credential';

/** The path families a read or a mention of exposes (devices only matter as whole values). */
export const SECRET: ReadonlySet<ForbiddenPath['kind']> = new Set(['secret']);

/** A guard denial in the making: the rule-naming reason and the audit signal. */
export class Blocked {
  constructor(
    readonly reason: string,
    readonly signal: string,
  ) {}
}

/** The denial for a forbidden path family (names the rule, never the path). */
export function forbidden(rule: ForbiddenPath): Blocked {
  return new Blocked(`forbidden path: ${rule.name}`, 'forbidden path');
}

/** Secret families anywhere inside a text (prose, code, options like --file=/etc/shadow). */
export function scanText(text: string, home: string): Blocked | null {
  for (const token of pathTokens(text, home)) {
    const rule = forbiddenPathRule(token, SECRET);
    if (rule) return forbidden(rule);
  }
  return null;
}

/** Forbidden tokens of a text, with repeats: what a mention must account for, one by one. */
export function forbiddenTokens(text: string, home: string): string[] {
  return pathTokens(text, home).filter((token) => forbiddenPathRule(token, SECRET) !== null);
}

/**
 * A whole value that is itself a path (or `key=path`): devices count here, not inside prose, and
 * so does a secret path whose name holds a character that ends a path in prose (the colons of
 * a PCI address: /sys/bus/pci/devices/0000:00:02.0/config).
 */
export function scanWhole(value: string, home: string): Blocked | null {
  const eq = value.indexOf('=');
  const candidates = eq > 0 ? [value, value.slice(eq + 1)] : [value];
  for (const candidate of candidates) {
    const rule = forbiddenPathRule(normalizePath(candidate.trim(), home));
    if (rule) return forbidden(rule);
  }
  return null;
}

/** A glob that could expand to a forbidden path: tried on each rule's samples and their forbidden parents. */
export function scanGlob(value: string, home: string): Blocked | null {
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
