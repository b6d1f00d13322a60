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
 * The text of every object of the `types` the repository in `dir` stores (any history, reflog,
 * the index, and objects no ref reaches, which `git show <id>` still prints), at most `maxBytes`
 * in all.
 */
function objectsText(
  dir: string,
  env: NodeJS.ProcessEnv,
  types: ReadonlySet<string>,
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
    if (type === undefined || !types.has(type) || id === undefined) continue;
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

/**
/** How many layers of compression a file's text is read through (`notes.tar.gz.gz`). */
const MAX_LAYERS = 4;

/** A gzip member, or a zlib stream with a valid header (git's loose objects are one). */
function compressed(bytes: Buffer): 'gzip' | 'zlib' | null {
  if (bytes.length < 2) return null;
  const [first = 0, second = 0] = bytes;
  if (first === 0x1f && second === 0x8b) return 'gzip';
  if ((first & 0x0f) === 8 && first >> 4 <= 7 && (first * 256 + second) % 31 === 0) return 'zlib';
  return null;
}

/**
 * The bytes a compressed file inflates to, layer after layer, at most `maxBytes`: a credential
 * kept gzipped (`keys.txt.gz`, a `.tar.gz` backup) or in git's zlib objects has none of its shapes
 * in the file's own bytes, yet code inflates it in one call. Bytes that do not inflate are the text.
 */
function inflated(bytes: Buffer, maxBytes: number): Buffer | 'too-large' {
  const zlib = process.getBuiltinModule('node:zlib');
  let text = bytes;
  for (let layer = 0; layer < MAX_LAYERS; layer++) {
    const kind = compressed(text);
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
    const bytes = inflated(readFileSync(path), maxBytes);
    if (bytes === 'too-large') return bytes;
    return bytes.toString(isUtf8(bytes) ? 'utf8' : 'latin1');
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
        return objectsText(dir, env, FILE_AND_MESSAGE_OBJECTS, maxBytes);
      } catch (error) {
        return error instanceof NotARepository ? 'none' : null;
      }
    },
    messageText(dir, maxBytes) {
      try {
        return objectsText(dir, env, MESSAGE_OBJECTS, maxBytes);
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
