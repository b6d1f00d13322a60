// The guard: encoded, non-negotiable, fail-closed. Forbidden paths anywhere in the args and
// dangerous shell on the parsed command. Reasons name the rule, never the matched text: they go
// to the audit log, which must never hold an argument value. A protected path that is only
// mentioned (file content, a search pattern, a URL on another host) passes with MENTION_SIGNAL,
// a secret-shaped token leaving the machine with SECRET_TOKEN_SIGNAL: policy asks for both.
import { isCriticalTree } from '../../constitution/dangerous-shell.ts';
import { forbiddenPathRule } from '../../constitution/forbidden-paths.ts';
import { encodedSecretTokenIn, secretTokenIn } from '../../constitution/secret-tokens.ts';
import { under, WRITE_PROTECTED } from '../../constitution/shell-view.ts';
import { parseShell } from '../shell/parse.ts';
import type { ParsedShell } from '../shell/types.ts';
import { normalizePath } from './normalize-path.ts';
import { Blocked, MENTION_SIGNAL, scanText, scanWhole, SECRET_TOKEN_SIGNAL } from './guard-scan.ts';
import { checkShell, siblingsOf } from './guard-shell.ts';

export { MENTION_SIGNAL, SECRET_TOKEN_SIGNAL, STORED_CREDENTIAL_SIGNAL } from './guard-scan.ts';

/** The guard's answer: blocked with a rule-naming reason, or passed; signals feed the judges and policy. */
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
  /**
   * Where an absolute path leads once the links that exist are followed (the path oracle's
   * `real`); when given, a shell word is also judged where it leads (`cd link && cat etc/shadow`
   * with link -> /). Without it the guard judges the text alone.
   */
  readonly realPath?: (path: string) => string;
  /**
   * The text of a small existing file (absolute path), or null; when given, a script the line
   * runs and a list it feeds to a deleter are judged by what they hold, though the line did not
   * write them (`bash bomb.sh`, `cat list | xargs rm -rf`). Without it only the line's own text.
   */
  readonly readText?: (path: string) => string | null;
  /**
   * Whether an absolute path reads a public key and nothing else (the path oracle's
   * `publicKey`): such a path is no secret where the call only reads it, a file tool that
   * changes nothing (`readsOnly`) or a shell reader (guard-shell.ts). Without it, the text alone.
   */
  readonly publicKey?: (path: string) => boolean;
  /** The executor changes nothing (fs_read, fs_grep): its path arguments are only read. */
  readonly readsOnly?: boolean;
}

// Walking a hostile args object must end: deeper nesting than this is blocked.
const MAX_DEPTH = 32;

/**
 * Top-level args that hold text, not a path the tool opens: a protected path inside them is a
 * mention. `url` counts only for an http(s) URL naming a host (its path is that host's).
 */
const TEXT_ARGS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['fs_write', new Set(['content'])],
  ['fs_edit', new Set(['old_text', 'new_text'])],
  ['fs_multi_edit', new Set(['edits'])],
  ['fs_grep', new Set(['pattern'])],
  ['web_fetch', new Set(['url'])],
]);
const REMOTE_URL = /^https?:\/\/[^/?#@\s]+(?:[/?#]|$)/i;
// Executors whose URL argument leaves the machine.
const URL_ARGS: ReadonlyMap<string, string> = new Map([['web_fetch', 'url']]);

function isText(input: GuardInput, key: string | null, value: unknown): boolean {
  if (key === null || !(TEXT_ARGS.get(input.executor)?.has(key) ?? false)) return false;
  return (
    key !== URL_ARGS.get(input.executor) || (typeof value === 'string' && REMOTE_URL.test(value))
  );
}

/** The path a remote URL names on its host, decoded (`/etc/passwd` of https://x/etc/passwd). */
function urlPath(text: string): string | null {
  if (!REMOTE_URL.test(text)) return null;
  try {
    return decodeURIComponent(new URL(text).pathname);
  } catch {
    return null;
  }
}

/** The path families of a text that is only a mention: noted, never a denial. */
function noteMention(
  value: unknown,
  home: string,
  notes: Set<string>,
  depth: number,
): Blocked | null {
  if (depth > MAX_DEPTH)
    return new Blocked('guard: arguments nested too deeply to check', 'guard error');
  if (typeof value === 'string') {
    const path = urlPath(value);
    if (scanText(value, home) !== null || (path !== null && forbiddenPathRule(path) !== null))
      notes.add(MENTION_SIGNAL);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (scanText(k, home) !== null) notes.add(MENTION_SIGNAL);
      const hit = noteMention(v, home, notes, depth + 1);
      if (hit) return hit;
    }
  }
  return null;
}

/** A URL argument carrying a secret-shaped token: the call sends it to another machine. */
function noteSecretToken(input: GuardInput, notes: Set<string>): void {
  const key = URL_ARGS.get(input.executor);
  if (key === undefined || input.args === null || typeof input.args !== 'object') return;
  const record = input.args as Record<string, unknown>;
  const url = Object.hasOwn(record, key) ? record[key] : undefined;
  // Percent-encoding hides a token's shape from the text (ghp%5F…): the decoded URL is read too,
  // and so is what its base64 and hex runs decode to (?k=Z2hwX… is ghp_…).
  if (typeof url !== 'string') return;
  const decoded = decodedUrl(url);
  if (
    [url, decoded].some((u) => secretTokenIn(u) !== null) ||
    encodedSecretTokenIn(decoded) !== null
  )
    notes.add(SECRET_TOKEN_SIGNAL);
}

/** A path argument of a tool that only reads, naming a public key file. */
function readsPublicKey(value: string, input: GuardInput): boolean {
  if (input.readsOnly !== true || input.publicKey === undefined) return false;
  const path = normalizePath(value.trim(), input.home);
  return path.startsWith('/') && input.publicKey(path);
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
      return checkShell(parsed, input.home, siblingsOf(input.args), notes, {
        ...(input.realPath === undefined ? {} : { realPath: input.realPath }),
        ...(input.readText === undefined ? {} : { readText: input.readText }),
        ...(input.publicKey === undefined ? {} : { publicKey: input.publicKey }),
      });
    }
    const hit = scanText(value, input.home) ?? scanWhole(value, input.home);
    // Asked only of a value the scan blocks: it resolves links and reads the file.
    return hit !== null && readsPublicKey(value, input) ? null : hit;
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
      const hit =
        depth === 0 && isText(input, k, v)
          ? noteMention(v, input.home, notes, depth + 1)
          : (scanText(k, input.home) ?? checkValue(v, k, input, depth + 1, notes));
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

// Executors that write where their path argument names.
const WRITING_EXECUTORS: ReadonlySet<string> = new Set([
  'fs_write',
  'fs_edit',
  'fs_multi_edit',
  'fs_mkdir',
  'fs_delete',
]);

/** A file tool writing into /etc, /usr, /boot, /sys or /proc (Law 5, as for the shell). */
function checkWrite(input: GuardInput): Blocked | null {
  if (
    !WRITING_EXECUTORS.has(input.executor) ||
    input.args === null ||
    typeof input.args !== 'object'
  )
    return null;
  const record = input.args as Record<string, unknown>;
  const path = Object.hasOwn(record, 'path') ? record.path : undefined;
  if (typeof path !== 'string' || !under(normalizePath(path.trim(), input.home), WRITE_PROTECTED))
    return null;
  return new Blocked('dangerous write: into a system tree', 'dangerous write');
}

/** Decide whether a proposed call is forbidden outright. Anything thrown inside blocks ("guard error"). */
export function guardCall(input: GuardInput): GuardResult {
  try {
    // Notes become signals for the judges: an unparsable line passed on raw-text checks alone.
    const notes = new Set<string>();
    const hit =
      checkValue(input.args, null, input, 0, notes) ?? checkDelete(input) ?? checkWrite(input);
    if (hit) {
      // A denial needs no card: what would have asked is not part of its record.
      const kept = [...notes].filter((n) => n !== MENTION_SIGNAL);
      return { blocked: true, reason: hit.reason, signals: [hit.signal, ...kept] };
    }
    noteSecretToken(input, notes);
    return { blocked: false, signals: [...notes] };
  } catch {
    return { blocked: true, reason: 'guard error', signals: ['guard error'] };
  }
}

/** The URL with its percent-escapes decoded, or as given when they do not decode. */
function decodedUrl(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}
