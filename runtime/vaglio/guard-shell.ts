// The guard's shell part: a command line judged on its parse. Every word is scanned as a path
// where the command uses it as one (cd and the call's cwd followed, variables and $1...
// substituted), a directory operand as the file opened inside it, the dangerous-shell rules on
// every command; a word the program only treats as text is a mention (signal, no denial).
import { dangerousShellRule, type ShellView } from '../../constitution/dangerous-shell.ts';
import { literal, under, WRITE_PROTECTED } from '../../constitution/shell-view.ts';
import { parseShell } from '../shell/parse.ts';
import { binaryOf } from '../shell/unwrap.ts';
import { fileKey, scriptRun } from '../shell/written-files.ts';
import { DEVICE_METADATA_COMMANDS, forbiddenPathRule } from '../../constitution/forbidden-paths.ts';
import { mentionWords } from '../../constitution/mentions.ts';
import { NETWORK_PROGRAMS } from '../../constitution/network-effects.ts';
import { runsCode } from '../../constitution/command-effects.ts';
import { openedInside } from '../../constitution/opened-inside.ts';
import { readsFilesOnly } from '../../constitution/public-keys.ts';
import { secretTokenIn } from '../../constitution/secret-tokens.ts';
import type { ParsedShell, ShellCommand, ShellWord } from '../shell/types.ts';
import { normalizePath } from './normalize-path.ts';
import { wordValues } from './guard-text.ts';
import {
  Blocked,
  forbidden,
  forbiddenTokens,
  MENTION_SIGNAL,
  scanGlob,
  scanText,
  scanWhole,
  SECRET,
  SECRET_TOKEN_SIGNAL,
} from './guard-scan.ts';

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

/**
 * `$CMD -rf /` with CMD='rm' known: the same command with its name substituted, for the rules.
 * The value's words come first; an empty value leaves none (bash drops an unquoted empty
 * expansion), so `CMD=; $CMD rm -rf /` runs its first argument, rm, as does `$CMD $CMD rm`.
 */
function namedShadows(
  parsed: ParsedShell,
  values: (word: ShellWord) => readonly string[],
): ShellCommand[] {
  const shadows: ShellCommand[] = [];
  const vanishes = (word: ShellWord): boolean =>
    !word.literal && values(word).every((value) => value.trim() === '');
  for (const command of parsed.commands) {
    if (command.name === null || command.binary !== null) continue;
    for (const value of values(command.name).slice(0, 8)) {
      const made = value.split(/\s+/).filter((text) => text !== '');
      const words = [...made.map(literal), ...command.args];
      while (words.length > 0 && vanishes(words[0] as ShellWord)) words.shift();
      const [head, ...args] = words;
      const binary = binaryOf(head);
      if (binary === null || binary === '') continue;
      shadows.push({ ...command, binary, args });
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
export interface ShellSiblings {
  readonly positional: readonly string[];
  readonly cwd: string;
}

// shell_exec runs in ~ unless told otherwise, so `rm -rf *` alone empties the home.
const DEFAULT_SHELL_CWD = '~';

/** shell_exec's $1... and cwd, from its args (defaults when absent or malformed). */
export function siblingsOf(args: unknown): ShellSiblings {
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

type Mentions = ReadonlyMap<ShellCommand, ReadonlySet<ShellWord>>;

/**
 * The raw text's forbidden tokens, each accounted for by a mention word or else a denial: the
 * net under what the parse does not show as words (test expressions, here-documents, case).
 */
function unaccountedToken(
  parsed: ParsedShell,
  mentions: Mentions,
  publicKeys: ReadonlySet<ShellWord>,
  home: string,
  notes: Set<string>,
): Blocked | null {
  const tokens = forbiddenTokens(parsed.source, home);
  if (tokens.length === 0) return null;
  // A public key a reader names accounts for its token without being a mention.
  const keys = tokenCounts([publicKeys], home);
  const budget = tokenCounts(mentions.values(), home);
  let mentioned = false;
  for (const token of tokens) {
    const key = keys.get(token) ?? 0;
    if (key > 0) {
      keys.set(token, key - 1);
      continue;
    }
    const left = budget.get(token) ?? 0;
    if (left === 0) return scanText(token, home);
    budget.set(token, left - 1);
    mentioned = true;
  }
  if (mentioned) notes.add(MENTION_SIGNAL);
  return null;
}

/** How many times each forbidden token appears in the words' texts. */
function tokenCounts(groups: Iterable<ReadonlySet<ShellWord>>, home: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const words of groups) {
    for (const word of words) {
      for (const token of forbiddenTokens(word.text, home))
        counts.set(token, (counts.get(token) ?? 0) + 1);
    }
  }
  return counts;
}

/** A command that can send data off the machine: a network program, a shell or interpreter, or an unknown name. */
function reachesNetwork(parsed: ParsedShell): boolean {
  return parsed.commands.some(
    (c) => c.binary === null || NETWORK_PROGRAMS.has(c.binary) || runsCode(c.binary),
  );
}

/** Judge a parsed command line; mentions and secret-shaped tokens leaving the machine become `notes`. */
// Programs that act on a link itself, not on what it leads to (rm keys removes the link).
const ON_THE_LINK: ReadonlySet<string> = new Set([
  'rm',
  'unlink',
  'mv',
  'ln',
  'readlink',
  'ls',
  'stat',
  'lstat',
  'find',
]);

/** Where the command reaches through `path`: its links followed, the last one only if it opens it. */
function leadsTo(command: ShellCommand, path: string, realPath: (p: string) => string): string {
  // /dev/fd, /dev/stdout and /proc/self lead into the deciding process, not the command's.
  if (/^\/(?:dev|proc)\//.test(path)) return path;
  if (command.binary === null || !ON_THE_LINK.has(command.binary)) return realPath(path);
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? path : `${realPath(path.slice(0, slash))}${path.slice(slash)}`;
}

const TILDE_PLUS = /^~\+(?=\/|$)/;

/** What the guard may ask of the disk: where links lead, and a small file's text. */
export interface ShellDisk {
  readonly realPath?: (path: string) => string;
  readonly readText?: (path: string) => string | null;
  /** Whether an absolute path reads a public key and nothing else (the path oracle's). */
  readonly publicKey?: (path: string) => boolean;
}

/**
 * The words a reader (cat, head, ssh-keygen -l ...) names that are public key files on disk now:
 * each one is read, not a secret. A word with an expansion ($x, $(...)) is not one of them.
 */
function publicKeyWords(parsed: ParsedShell, home: string, disk: ShellDisk): Set<ShellWord> {
  const out = new Set<ShellWord>();
  const { publicKey } = disk;
  if (publicKey === undefined) return out;
  for (const command of parsed.commands) {
    const texts = command.args.map((word) => word.text);
    if (command.wrappers.length > 0 || !readsFilesOnly(command.binary, texts)) continue;
    for (const word of command.args) {
      // A glob (~/.ssh/*.pub) counts when every file it matches now is a public key.
      if (!word.literal && !(word.glob && !/[$`]/.test(word.text))) continue;
      const path = normalizePath(word.text, home);
      if (path.startsWith('/') && publicKey(path)) out.add(word);
    }
  }
  return out;
}

/**
 * A script the line runs from a file it did not write (`bash bomb.sh`, `./clean.sh`), judged as
 * if its text stood in the line. One level deep: what that script runs in turn is not read. A
 * program of the system trees (/usr/bin/which is a script) is the system's, not judged here.
 */
function existingScriptHit(
  parsed: ParsedShell,
  view: ShellView,
  home: string,
  siblings: ShellSiblings,
  notes: Set<string>,
  disk: ShellDisk,
): Blocked | null {
  for (const command of parsed.commands) {
    const name = scriptRun(command);
    if (name === null || parsed.written.has(name)) continue;
    const word = literal(name);
    if (view.paths(word).some((path) => under(path, WRITE_PROTECTED))) continue;
    const text = view.fileText(word);
    if (text === null) continue;
    const inner = disk.realPath === undefined ? {} : { realPath: disk.realPath };
    const hit = checkShell(parseShell(text), home, siblings, notes, inner);
    if (hit) return hit;
  }
  return null;
}

export function checkShell(
  parsed: ParsedShell,
  home: string,
  siblings: ShellSiblings,
  notes: Set<string>,
  disk: ShellDisk = {},
): Blocked | null {
  const realPath = disk.realPath ?? ((path: string) => path);
  const mentions: Mentions = new Map(parsed.commands.map((c) => [c, mentionWords(c)]));
  const publicKeys = publicKeyWords(parsed, home, disk);
  const raw = unaccountedToken(parsed, mentions, publicKeys, home, notes);
  if (raw) return raw;
  if (secretTokenIn(parsed.source) !== null && reachesNetwork(parsed))
    notes.add(SECRET_TOKEN_SIGNAL);
  const given = normalizePath(siblings.cwd, home);
  const start = given.startsWith('/') ? given : normalizePath(`${home}/${given}`, home);
  const dirsOf = workingDirs(parsed, wordValues(parsed, home, siblings.positional), home, start);
  const wordDirs = new Map<ShellWord, readonly string[]>();
  for (const command of parsed.commands) {
    for (const word of commandWords(command)) wordDirs.set(word, dirsOf.get(command) ?? [start]);
  }
  // Words the rules make up (the file of dd's of=...) may run in any directory seen.
  const anyDir = [...new Set([start, ...[...dirsOf.values()].flat()])];
  const values = wordValues(
    parsed,
    home,
    siblings.positional,
    anyDir,
    (word) => wordDirs.get(word) ?? anyDir,
  );
  const pathCache = new Map<ShellWord, string[]>();
  const paths = (word: ShellWord): string[] => {
    const cached = pathCache.get(word);
    if (cached) return cached;
    const out = values(word).flatMap((v) => {
      // An empty word names nothing (rm -rf "$UNSET" removes nothing).
      if (v === '') return [];
      // `~+` is $PWD: where the command runs.
      if (TILDE_PLUS.test(v))
        return (wordDirs.get(word) ?? anyDir).map((dir) =>
          normalizePath(v.replace(TILDE_PLUS, dir), home),
        );
      const path = normalizePath(v, home);
      if (path.startsWith('/')) return [path];
      const dirs = wordDirs.get(word) ?? anyDir;
      return [path, ...dirs.map((dir) => normalizePath(`${dir}/${path}`, home))];
    });
    pathCache.set(word, out);
    return out;
  };
  // Scripts repeat the same words ("$line", "$pid"): each distinct text is scanned once.
  const scanned = new Set<string>();
  for (const command of parsed.commands) {
    const devicesMatter = command.binary === null || !DEVICE_METADATA_COMMANDS.has(command.binary);
    const mentioned = mentions.get(command) ?? new Set<ShellWord>();
    for (const word of commandWords(command)) {
      if (publicKeys.has(word)) continue;
      if (mentioned.has(word)) {
        if (values(word).some((value) => scanText(value, home) !== null)) notes.add(MENTION_SIGNAL);
        continue;
      }
      for (const value of values(word)) {
        if (scanned.has(value)) continue;
        scanned.add(value);
        const hit = scanText(value, home);
        if (hit) return hit;
      }
      for (const path of paths(word)) {
        // Where the path leads too: a link in it (or in the cwd) may lead into a secret store.
        // The command's own name is run, not read: where its link leads is not opened as data.
        const followed = path.startsWith('/') && word !== command.name;
        const secret =
          forbiddenPathRule(path, SECRET) ??
          (followed ? forbiddenPathRule(leadsTo(command, path, realPath), SECRET) : null);
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
  const fileText = (word: ShellWord): string | null => {
    if (!word.literal) return null;
    const own = parsed.written.get(fileKey(word.text));
    if (own !== undefined || disk.readText === undefined) return own ?? null;
    for (const path of paths(word)) {
      const text = path.startsWith('/') ? disk.readText(path) : null;
      if (text !== null) return text;
    }
    return null;
  };
  const view: ShellView = {
    parsed:
      shadows.length === 0 ? parsed : { ...parsed, commands: [...parsed.commands, ...shadows] },
    home,
    paths,
    fileText,
    workingDirs: (command) => dirsOf.get(command) ?? anyDir,
  };
  const danger = dangerousShellRule(view);
  if (danger) return new Blocked(`dangerous shell: ${danger.name}`, 'dangerous shell');
  return disk.readText === undefined
    ? null
    : existingScriptHit(parsed, view, home, siblings, notes, disk);
}
