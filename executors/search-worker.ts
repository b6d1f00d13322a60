// fs_grep's reading and matching, in a worker thread under a deadline. A model-supplied regular
// expression such as ^(a+)+$ would otherwise freeze the daemon's event loop, and every channel
// with it. The worker also reads the files, with plain blocking calls that block only the worker:
// a file costs a few system calls instead of five round trips through libuv's thread pool, which
// made a search ten times slower than grep. The worker source is plain CommonJS, so it runs
// without a TypeScript loader.
import type { Worker } from 'node:worker_threads';
import { ExecutorTimeout } from '../runtime/errors.ts';

/**
 * For each path: open it without following a link (the walk listed it as a file; a link put in
 * its place since could lead anywhere) and without blocking (a FIFO would hang the read); skip
 * anything that is not a regular file, is larger than maxFileBytes, or has a NUL in its first
 * 8 KiB (binary, as text-file.ts looksBinary decides); test each line (the text between two \n).
 * A file whose first bytes (one character each) match the `withhold` `head` pattern (a binary
 * store's signature) is withheld: its answer is null. So is a file whose
 * text matches the `withhold` pattern (a credential's shape), or that has several names and
 * matches its `multiNamed` pattern (an env file's line), or sits below one of the `toolConfig`
 * prefixes (the home's dot-places) and matches its pattern (a password setting). Every file
 * read is scanned for those, whether or not a line matched: the count of withheld files must not
 * depend on the pattern. The pattern comes with each message, so one worker serves one search after
 * another; files are read into one buffer that grows as needed, not a new one per file.
 */
const workerSource = `
const { parentPort } = require('node:worker_threads');
const { closeSync, constants, fstatSync, openSync, readSync } = require('node:fs');
const openFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
let buffer = Buffer.allocUnsafe(64 * 1024);
let compiled = { key: undefined, regex: undefined };

function regexOf(pattern, flags) {
  const key = flags + '/' + pattern;
  if (compiled.key !== key) compiled = { key, regex: new RegExp(pattern, flags) };
  return compiled.regex;
}

function textOf(path, maxFileBytes, headBytes) {
  let fd;
  try {
    fd = openSync(path, openFlags);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > maxFileBytes) return undefined;
    if (buffer.length < stats.size) buffer = Buffer.allocUnsafe(stats.size);
    let size = 0;
    while (size < stats.size) {
      const read = readSync(fd, buffer, size, stats.size - size, size);
      if (read === 0) break;
      size += read;
    }
    const head = buffer.toString('latin1', 0, Math.min(size, headBytes));
    if (buffer.subarray(0, Math.min(size, 8192)).includes(0)) return { head, text: undefined };
    return { head, text: buffer.toString('utf8', 0, size), multiNamed: stats.nlink > 1 };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The withhold patterns of a message, compiled once for a search's messages. */
let withholding = { key: undefined, tests: undefined };

function withholdTests(withhold) {
  const key = JSON.stringify(withhold ?? null);
  if (withholding.key === key) return withholding.tests;
  const tests = {
    text: withhold === undefined ? undefined : new RegExp(withhold.pattern, withhold.flags),
    linked:
      withhold?.multiNamed === undefined
        ? undefined
        : new RegExp(withhold.multiNamed.pattern, withhold.multiNamed.flags),
    head: withhold?.head === undefined ? undefined : new RegExp(withhold.head.pattern, withhold.head.flags),
    headBytes: withhold?.head?.bytes ?? 0,
    setting:
      withhold?.toolConfig === undefined
        ? undefined
        : new RegExp(withhold.toolConfig.pattern, withhold.toolConfig.flags),
    prefixes: withhold?.toolConfig?.prefixes ?? [],
    runs: (withhold?.encoded?.runs ?? []).map((run) => new RegExp(run.pattern, run.flags)),
  };
  withholding = { key, tests };
  return tests;
}

/**
 * Whether a base64 or hex run in text (27 characters or more: the shortest shape encoded)
 * decodes to text holding a credential's shape, up to depth encodings deep.
 */
function encodedCredential(text, tests, depth) {
  if (depth === 0 || tests.text === undefined) return false;
  return tests.runs.some((runs) => (text.match(runs) ?? []).some((run) => {
    const compact = run.replace(/\\s/g, '');
    if (compact.length < 27) return false;
    const decodings = [Buffer.from(compact, 'base64')];
    if (/^(?:[0-9a-f]{2})+$/i.test(compact)) decodings.push(Buffer.from(compact, 'hex'));
    return decodings.some((bytes) => {
      const decoded = bytes.toString('latin1');
      return tests.text.test(decoded) || encodedCredential(decoded, tests, depth - 1);
    });
  }));
}

/** Whether a file is withheld: its text holds a credential's shape, plain or encoded. */
function withheldText(file, path, tests) {
  const { text } = file;
  if (tests.text !== undefined && tests.text.test(text)) return true;
  if (encodedCredential(text, tests, 3)) return true;
  if (file.multiNamed && tests.linked !== undefined && tests.linked.test(text)) return true;
  return (
    tests.setting !== undefined &&
    tests.prefixes.some((prefix) => path.startsWith(prefix)) &&
    tests.setting.test(text)
  );
}

parentPort.on('message', ({ pattern, flags, withhold, maxFileBytes, maxLineChars, paths, limit }) => {
  const regex = regexOf(pattern, flags);
  const tests = withholdTests(withhold);
  let left = limit;
  parentPort.postMessage(paths.map((path) => {
    const hits = [];
    const file = left > 0 ? textOf(path, maxFileBytes, tests.headBytes) : undefined;
    if (file === undefined) return hits;
    // A binary store's signature is a few bytes, cheap to test: such a file is withheld (and
    // counted) whether or not its text would match.
    if (tests.head !== undefined && tests.head.test(file.head)) return null;
    if (file.text === undefined) return hits;
    // Every file read is looked at for a credential before the pattern runs on it, hits or none:
    // a count of withheld files that grew only when the pattern matched one, or a pattern that
    // backtracks for seconds only on a token's first characters, would answer "does it start
    // with X?".
    if (withheldText(file, path, tests)) return null;
    const { text } = file;
    for (let start = 0, number = 1; start <= text.length && hits.length < left; number += 1) {
      const newline = text.indexOf('\\n', start);
      const end = newline === -1 ? text.length : newline;
      const line = text.slice(start, end);
      if (regex.test(line)) hits.push([number, line.slice(0, maxLineChars)]);
      start = end + 1;
    }
    left -= hits.length;
    return hits;
  }));
});`;

/** A matching line: its number (from 1) and its text, cut at maxLineChars. */
export type LineHit = readonly [line: number, text: string];

/** A file's matching lines, or null when it was withheld (its text matched `withhold`). */
export type FileHits = LineHit[] | null;

/**
 * Searches files for one pattern off the main thread. Calls may overlap: the worker answers them
 * in turn. Once the deadline has passed, every call rejects with ExecutorTimeout.
 */
export interface FileSearcher {
  /** For each path, its matching lines, at most `limit` in all (the first ones in path order). */
  search(paths: readonly string[], limit: number): Promise<FileHits[]>;
  close(): Promise<void>;
}

export interface FileSearcherOptions {
  /** An already-validated pattern and its flags. */
  readonly pattern: string;
  readonly flags: string;
  /** When to give up (epoch ms). */
  readonly deadline: number;
  /** How many worker threads share the calls (default 1). */
  readonly workers?: number;
  /** Larger files are skipped. */
  readonly maxFileBytes: number;
  /** A matched line is cut here. */
  readonly maxLineChars: number;
  /**
   * A file whose text matches `pattern` is not searched (its hits are null), nor one of several
   * names (a hard link) whose text matches `multiNamed`, nor one below a `toolConfig` prefix
   * whose text matches its pattern.
   */
  readonly withhold?: {
    readonly pattern: string;
    readonly flags: string;
    readonly multiNamed?: { readonly pattern: string; readonly flags: string };
    /** Tested on the first `bytes` bytes, one character per byte. */
    readonly head?: { readonly pattern: string; readonly flags: string; readonly bytes: number };
    readonly toolConfig?: {
      readonly pattern: string;
      readonly flags: string;
      readonly prefixes: readonly string[];
    };
    /** Base64 and hex runs, decoded and tested against `pattern` (three encodings deep). */
    readonly encoded?: {
      readonly runs: readonly { readonly pattern: string; readonly flags: string }[];
    };
  };
}

interface Waiting {
  resolve(hits: FileHits[]): void;
  reject(error: Error): void;
}

/**
 * Workers whose last search ended with every answer in, kept (unref'd, so they hold no process
 * open) for the next search: a fresh worker costs its start and a cold JIT on every search. A
 * worker whose search timed out, failed or closed with an answer still owed is never kept.
 */
const idleWorkers: Worker[] = [];
const maxIdleWorkers = 2;

function takeWorker(): Worker {
  const kept = idleWorkers.pop();
  if (kept !== undefined) {
    kept.ref();
    return kept;
  }
  // node:worker_threads loads with the first search, not with every start.
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const worker = new Worker(workerSource, { eval: true });
  // A kept worker that stops is dropped; its error, if any, reaches the search using it.
  worker.on('exit', () => {
    const at = idleWorkers.indexOf(worker);
    if (at !== -1) idleWorkers.splice(at, 1);
  });
  worker.on('error', () => undefined);
  return worker;
}

/** One worker of a search, and the answers it still owes (it answers in turn). */
interface Lane {
  readonly worker: Worker;
  readonly waiting: Waiting[];
  readonly onMessage: (hits: FileHits[]) => void;
}

/**
 * A searcher on up to `workers` worker threads (default 1) no other search is using at the same
 * time; calls go to them in turn, so several batches are searched at once (a search of one batch
 * takes one worker).
 */
export function createFileSearcher(options: FileSearcherOptions): FileSearcher {
  const { deadline, workers = 1, ...searchOptions } = options;
  let failure: Error | undefined;
  const lanes: Lane[] = [];
  let calls = 0;
  const fail = (error: Error): void => {
    failure ??= error;
    for (const lane of lanes) for (const call of lane.waiting.splice(0)) call.reject(failure);
  };
  const onExit = (code: number): void => {
    fail(new Error(`the search worker stopped (exit code ${String(code)})`));
  };
  /** The lane for the next call: a worker is taken only when a call needs one. */
  const nextLane = (): Lane => {
    const kept = lanes[calls % Math.max(1, workers)];
    if (kept !== undefined) return kept;
    const waiting: Waiting[] = [];
    const lane = {
      worker: takeWorker(),
      waiting,
      onMessage: (hits: FileHits[]): void => waiting.shift()?.resolve(hits),
    };
    lane.worker.on('message', lane.onMessage);
    lane.worker.on('error', fail);
    lane.worker.on('exit', onExit);
    lanes.push(lane);
    return lane;
  };
  const timer = setTimeout(
    () => {
      fail(
        new ExecutorTimeout(
          'the pattern took too long to match (sandbox.default_timeout_ms); use a simpler regular expression',
        ),
      );
      for (const { worker } of lanes) void worker.terminate();
    },
    Math.max(0, deadline - Date.now()),
  );
  return {
    search(paths, limit) {
      if (failure !== undefined) return Promise.reject(failure);
      const lane = nextLane();
      calls += 1;
      return new Promise((resolve, reject) => {
        lane.waiting.push({ resolve, reject });
        lane.worker.postMessage({ ...searchOptions, paths, limit });
      });
    },
    async close() {
      clearTimeout(timer);
      const owed = lanes.some((lane) => lane.waiting.length > 0);
      for (const { worker, onMessage } of lanes) {
        worker.off('message', onMessage);
        worker.off('error', fail);
        worker.off('exit', onExit);
      }
      const ended: Worker[] = [];
      for (const { worker } of lanes) {
        if (failure === undefined && !owed && idleWorkers.length < maxIdleWorkers) {
          worker.unref();
          idleWorkers.push(worker);
        } else ended.push(worker);
      }
      if (ended.length === 0) return;
      fail(new Error('the search was closed'));
      await Promise.all(ended.map((worker) => worker.terminate()));
    },
  };
}
