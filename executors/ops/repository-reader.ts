// What a git command run in a directory could print from its repository, read at decision time:
// every path its objects hold (any commit of any ref or reflog, the index) and its config as
// git assembles it. Read by git itself, so discovery, safe.directory and includes are what the
// command will see; only plumbing that starts no program runs (no index refresh, so no
// fsmonitor; no hooks; --missing=print, so a partial clone fetches nothing), without locks, a
// pager or a prompt, and a timeout. Anything unexpected is "could not tell" (the caller asks).
import { isUtf8 } from 'node:buffer';
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { RepositoryReader } from '../../runtime/pipeline/repository-exposure.ts';

const TIMEOUT_MS = 5_000;
const MAX_OUTPUT = 64 * 1024 * 1024;
// Options that keep git to reading: no optional locks, no fsmonitor, no pager.
const QUIET = ['--no-optional-locks', '--no-pager', '-c', 'core.fsmonitor=false'];

class NotARepository extends Error {}

function gitIn(dir: string, env: NodeJS.ProcessEnv, args: readonly string[]): string {
  try {
    // node:child_process is loaded when a repository is first read: most decisions read none.
    return process.getBuiltinModule('node:child_process').execFileSync('git', [...QUIET, ...args], {
      cwd: dir,
      env: { ...env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', GIT_NO_LAZY_FETCH: '1' },
      encoding: 'utf8',
      timeout: TIMEOUT_MS,
      maxBuffer: MAX_OUTPUT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const { status, stderr, code } = error as { status?: number; stderr?: string; code?: string };
    // No git at all: the command itself cannot run either.
    if (code === 'ENOENT') throw new NotARepository();
    if (status === 128 && /not a git repository/i.test(stderr ?? '')) throw new NotARepository();
    throw error;
  }
}

function topOf(dir: string, env: NodeJS.ProcessEnv, gitDir: string): string | null {
  if (gitIn(dir, env, ['rev-parse', '--is-bare-repository']).trim() === 'true') return null;
  try {
    return gitIn(dir, env, ['rev-parse', '--show-toplevel']).trim();
  } catch {
    // Inside the .git directory itself: its work tree is the directory holding it.
    return basename(gitDir) === '.git' ? dirname(gitDir) : null;
  }
}

function objectPaths(dir: string, env: NodeJS.ProcessEnv): string[] {
  const listing = gitIn(dir, env, [
    'rev-list',
    '--objects',
    '--all',
    '--reflog',
    '--indexed-objects',
    '--missing=print',
  ]);
  const paths = new Set<string>();
  for (const line of listing.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0 && space < line.length - 1) paths.add(line.slice(space + 1));
  }
  return [...paths];
}

/** The objects that hold file versions and those that hold messages (commits, annotated tags). */
const FILE_AND_MESSAGE_OBJECTS: ReadonlySet<string> = new Set(['blob', 'commit', 'tag']);
const MESSAGE_OBJECTS: ReadonlySet<string> = new Set(['commit', 'tag']);

/**
 * The text of every object `wanted` picks by its type and id that the repository in `dir` stores (any history, reflog,
 * the index, and objects no ref reaches, which `git show <id>` still prints), at most `maxBytes`
 * in all.
 */
function objectsText(
  dir: string,
  env: NodeJS.ProcessEnv,
  wanted: (type: string, id: string) => boolean,
  maxBytes: number,
): string | 'too-large' {
  const listing = gitIn(dir, env, [
    'cat-file',
    '--batch-all-objects',
    '--batch-check=%(objecttype) %(objectsize) %(objectname)',
  ]);
  const ids: string[] = [];
  let size = 0;
  for (const line of listing.split('\n')) {
    const [type, bytes, id] = line.split(' ');
    if (type === undefined || id === undefined || !wanted(type, id)) continue;
    size += Number(bytes);
    if (size > maxBytes) return 'too-large';
    ids.push(id);
  }
  if (ids.length === 0) return '';
  const bytes = process
    .getBuiltinModule('node:child_process')
    .execFileSync('git', [...QUIET, 'cat-file', '--batch'], {
      cwd: dir,
      env: { ...env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', GIT_NO_LAZY_FETCH: '1' },
      input: `${ids.join('\n')}\n`,
      timeout: TIMEOUT_MS,
      maxBuffer: MAX_OUTPUT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  return bytes.toString(isUtf8(bytes) ? 'utf8' : 'latin1');
}

/** The ids of every object the notes refs reach (`refs/notes/*`: what `git log` shows as notes). */
function noteObjects(dir: string, env: NodeJS.ProcessEnv): ReadonlySet<string> {
  const listing = gitIn(dir, env, [
    'rev-list',
    '--objects',
    '--glob=refs/notes',
    '--missing=print',
  ]);
  return new Set(listing.split('\n').map((line) => line.split(' ')[0] ?? ''));
}

/** How many layers of compression a file's text is read through (`notes.tar.gz.gz`). */
const MAX_LAYERS = 4;

/** A gzip member, or a zlib stream with a valid header (git's loose objects are one). */
function zlibKind(bytes: Buffer): 'gzip' | 'zlib' | null {
  if (bytes.length < 2) return null;
  const [first = 0, second = 0] = bytes;
  if (first === 0x1f && second === 0x8b) return 'gzip';
  if ((first & 0x0f) === 8 && first >> 4 <= 7 && (first * 256 + second) % 31 === 0) return 'zlib';
  return null;
}

// Formats node cannot inflate, by their magic bytes, and the system's tool that prints what they
// hold (every member of a zip, one after another).
const UNPACKERS: readonly { readonly magic: Buffer; readonly argv: readonly string[] }[] = [
  { magic: Buffer.from('PK\x03\x04', 'latin1'), argv: ['unzip', '-p', '-qq', '-P', ''] },
  { magic: Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), argv: ['xz', '-dcq'] },
  { magic: Buffer.from('BZh', 'latin1'), argv: ['bzip2', '-dcq'] },
  { magic: Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), argv: ['zstd', '-dcq'] },
];

/** What `path` unpacks to by the system's tool for its format; null when none applies or it failed. */
function unpacked(path: string, bytes: Buffer, maxBytes: number): Buffer | 'too-large' | null {
  const unpacker = UNPACKERS.find(({ magic }) => bytes.subarray(0, magic.length).equals(magic));
  if (unpacker === undefined) return null;
  const [program = '', ...args] = unpacker.argv;
  try {
    return process.getBuiltinModule('node:child_process').execFileSync(program, [...args, path], {
      timeout: TIMEOUT_MS,
      maxBuffer: maxBytes,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch (error) {
    return (error as { code?: string }).code === 'ENOBUFS' ? 'too-large' : null;
  }
}

/**
 * The bytes a compressed file holds, layer after layer, at most `maxBytes`: a credential kept
 * compressed (`keys.txt.gz`, a `.tar.gz`, `.tar.xz` or `.zip` backup) or in git's zlib objects has
 * none of its shapes in the file's own bytes, yet code inflates it in one call. Bytes that do not
 * inflate are the text.
 */
function inflated(path: string, bytes: Buffer, maxBytes: number): Buffer | 'too-large' {
  const zlib = process.getBuiltinModule('node:zlib');
  const outer = unpacked(path, bytes, maxBytes);
  if (outer === 'too-large') return outer;
  let text = outer ?? bytes;
  for (let layer = 0; layer < MAX_LAYERS; layer++) {
    const kind = zlibKind(text);
    if (kind === null) return text;
    try {
      const options = { maxOutputLength: maxBytes };
      text = kind === 'gzip' ? zlib.gunzipSync(text, options) : zlib.inflateSync(text, options);
    } catch (error) {
      if (error instanceof RangeError) return 'too-large';
      return text;
    }
  }
  return text;
}

/**
 * The byte order of UTF-16 text (a note Windows PowerShell wrote, `Out-File`'s default): a byte
 * order mark, or ASCII letters with a zero byte beside each, always on the same side. Null when
 * the bytes do not read as UTF-16.
 */
function utf16Order(bytes: Buffer): 'le' | 'be' | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'be';
  const sample = bytes.subarray(0, 4096);
  let zerosEven = 0;
  let zerosOdd = 0;
  for (let i = 0; i < sample.length; i++) {
    if (sample[i] !== 0) continue;
    if (i % 2 === 0) zerosEven++;
    else zerosOdd++;
  }
  const half = sample.length / 2;
  if (zerosOdd > half * 0.6 && zerosEven < half * 0.05) return 'le';
  if (zerosEven > half * 0.6 && zerosOdd < half * 0.05) return 'be';
  return null;
}

/**
 * UTF-16 text as its characters, then its bytes one character each: a credential's shapes match
 * the first, a binary store's signature the second.
 */
function fromUtf16(bytes: Buffer): string {
  const even = bytes.subarray(0, bytes.length - (bytes.length % 2));
  const little = utf16Order(bytes) === 'le' ? even : Buffer.from(even).swap16();
  return `${little.toString('utf16le')}\n${bytes.toString('latin1')}`;
}

/**
 * The text of a regular file of at most `maxBytes` (inflated, when it is gzip or zlib: what it
 * holds, not how it is stored); 'too-large' past them, null when none. Bytes that are not UTF-8
 * come one character per byte (latin1): a binary store's signature survives for the judge
 * (constitution/binary-secret-stores.ts), and ASCII shapes read the same.
 */
function textUpTo(path: string, maxBytes: number): string | 'too-large' | null {
  try {
    const stat = statSync(path);
    if (!stat.isFile()) return null;
    if (stat.size > maxBytes) return 'too-large';
    const bytes = inflated(path, readFileSync(path), maxBytes);
    if (bytes === 'too-large') return bytes;
    if (isUtf8(bytes)) return bytes.toString('utf8');
    return utf16Order(bytes) === null ? bytes.toString('latin1') : fromUtf16(bytes);
  } catch {
    return null;
  }
}

/** The reader over the real disk and git, with the environment the commands will run in. */
export function createRepositoryReader(env: NodeJS.ProcessEnv): RepositoryReader {
  return {
    contents(dir) {
      try {
        const gitDir = gitIn(dir, env, ['rev-parse', '--absolute-git-dir']).trim();
        return { top: topOf(dir, env, gitDir), paths: objectPaths(dir, env) };
      } catch (error) {
        return error instanceof NotARepository ? 'none' : null;
      }
    },
    storedText(dir, maxBytes) {
      try {
        return objectsText(dir, env, (type) => FILE_AND_MESSAGE_OBJECTS.has(type), maxBytes);
      } catch (error) {
        return error instanceof NotARepository ? 'none' : null;
      }
    },
    messageText(dir, maxBytes) {
      try {
        // A note (`git notes add`) is a blob the notes refs reach, printed by `git log` under its commit.
        const notes = noteObjects(dir, env);
        return objectsText(
          dir,
          env,
          (type, id) => MESSAGE_OBJECTS.has(type) || notes.has(id),
          maxBytes,
        );
      } catch (error) {
        return error instanceof NotARepository ? 'none' : null;
      }
    },
    editedFiles(dir) {
      try {
        // A bare repository or the .git directory itself has no work tree to print.
        if (gitIn(dir, env, ['rev-parse', '--is-inside-work-tree']).trim() !== 'true') return [];
        // Plumbing: no external diff or textconv, no index refresh (a touched file is listed too).
        const top = gitIn(dir, env, ['rev-parse', '--show-toplevel']).trim();
        const names = gitIn(dir, env, ['diff-files', '--name-only', '-z']).split('\0');
        return names.filter((name) => name !== '').map((name) => join(top, name));
      } catch (error) {
        return error instanceof NotARepository ? 'none' : null;
      }
    },
    stagedFiles(dir, pathspecs, untracked) {
      try {
        if (gitIn(dir, env, ['rev-parse', '--is-inside-work-tree']).trim() !== 'true') return [];
        const top = gitIn(dir, env, ['rev-parse', '--show-toplevel']).trim();
        // Plumbing that refreshes no index and runs no filter: edited tracked files (names from the
        // top), and with `untracked` the files git neither tracks nor ignores.
        const names = gitIn(dir, env, [
          'diff-files',
          '--name-only',
          '-z',
          '--',
          ...pathspecs,
        ]).split('\0');
        if (untracked)
          names.push(
            ...gitIn(dir, env, [
              'ls-files',
              '--others',
              '--exclude-standard',
              '--full-name',
              '-z',
              '--',
              ...pathspecs,
            ]).split('\0'),
          );
        return names.filter((name) => name !== '').map((name) => join(top, name));
      } catch (error) {
        return error instanceof NotARepository ? 'none' : null;
      }
    },
    config(dir) {
      try {
        return gitIn(dir, env, ['config', '--list', '--includes']);
      } catch {
        // Outside a repository git still lists the global and system configs: this is git failing.
        return null;
      }
    },
    textUpTo,
    multiNamed(path) {
      try {
        return statSync(path).nlink > 1;
      } catch {
        return false;
      }
    },
    largerThan(path, bytes) {
      try {
        const stat = statSync(path, { throwIfNoEntry: false });
        return stat?.isFile() === true && stat.size > bytes;
      } catch {
        return false;
      }
    },
    isFile(path) {
      try {
        return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
      } catch {
        // ENOTDIR (a file's name used as a directory), EACCES, ELOOP: no file to read there.
        return false;
      }
    },
  };
}
