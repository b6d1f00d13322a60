// fs_grep's reading and matching, in a worker thread under a deadline. A model-supplied regular
// expression such as ^(a+)+$ would otherwise freeze the daemon's event loop, and every channel
// with it. The worker also reads the files, with plain blocking calls that block only the worker:
// a file costs a few system calls instead of five round trips through libuv's thread pool, which
// made a search ten times slower than grep. The worker source is plain CommonJS, so it runs
// without a TypeScript loader.
import { ExecutorTimeout } from '../runtime/errors.ts';

/**
 * For each path: open it without following a link (the walk listed it as a file; a link put in
 * its place since could lead anywhere) and without blocking (a FIFO would hang the read); skip
 * anything that is not a regular file, is larger than maxFileBytes, or has a NUL in its first
 * 8 KiB (binary, as text-file.ts looksBinary decides); test each line (split at \n).
 */
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const { closeSync, constants, fstatSync, openSync, readSync } = require('node:fs');
const { pattern, flags, maxFileBytes, maxLineChars } = workerData;
const regex = new RegExp(pattern, flags);
const openFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

function textOf(path) {
  let fd;
  try {
    fd = openSync(path, openFlags);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > maxFileBytes) return undefined;
    const data = Buffer.allocUnsafe(stats.size);
    let size = 0;
    while (size < data.length) {
      const read = readSync(fd, data, size, data.length - size, size);
      if (read === 0) break;
      size += read;
    }
    if (data.subarray(0, Math.min(size, 8192)).includes(0)) return undefined;
    return data.toString('utf8', 0, size);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

parentPort.on('message', ({ paths, limit }) => {
  let left = limit;
  parentPort.postMessage(paths.map((path) => {
    const hits = [];
    const text = left > 0 ? textOf(path) : undefined;
    if (text === undefined) return hits;
    const lines = text.split('\\n');
    for (let i = 0; i < lines.length && left > 0; i += 1) {
      if (!regex.test(lines[i])) continue;
      hits.push([i + 1, lines[i].slice(0, maxLineChars)]);
      left -= 1;
    }
    return hits;
  }));
});`;

/** A matching line: its number (from 1) and its text, cut at maxLineChars. */
export type LineHit = readonly [line: number, text: string];

/**
 * Searches files for one pattern off the main thread. Calls may overlap: the worker answers them
 * in turn. Once the deadline has passed, every call rejects with ExecutorTimeout.
 */
export interface FileSearcher {
  /** For each path, its matching lines, at most `limit` in all (the first ones in path order). */
  search(paths: readonly string[], limit: number): Promise<LineHit[][]>;
  close(): Promise<void>;
}

export interface FileSearcherOptions {
  /** An already-validated pattern and its flags. */
  readonly pattern: string;
  readonly flags: string;
  /** When to give up (epoch ms). */
  readonly deadline: number;
  /** Larger files are skipped. */
  readonly maxFileBytes: number;
  /** A matched line is cut here. */
  readonly maxLineChars: number;
}

interface Waiting {
  resolve(hits: LineHit[][]): void;
  reject(error: Error): void;
}

/** A searcher in a worker thread of its own. */
export function createFileSearcher(options: FileSearcherOptions): FileSearcher {
  const { deadline, ...workerData } = options;
  // node:worker_threads loads with the first search, not with every start.
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const worker = new Worker(workerSource, { eval: true, workerData });
  const waiting: Waiting[] = [];
  let failure: Error | undefined;
  const fail = (error: Error): void => {
    failure ??= error;
    for (const call of waiting.splice(0)) call.reject(failure);
  };
  worker.on('message', (hits: LineHit[][]) => waiting.shift()?.resolve(hits));
  worker.on('error', fail);
  worker.on('exit', (code) =>
    fail(new Error(`the search worker stopped (exit code ${String(code)})`)),
  );
  const timer = setTimeout(
    () => {
      fail(
        new ExecutorTimeout(
          'the pattern took too long to match (sandbox.default_timeout_ms); use a simpler regular expression',
        ),
      );
      void worker.terminate();
    },
    Math.max(0, deadline - Date.now()),
  );
  return {
    search(paths, limit) {
      if (failure !== undefined) return Promise.reject(failure);
      return new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        worker.postMessage({ paths, limit });
      });
    },
    async close() {
      clearTimeout(timer);
      await worker.terminate();
    },
  };
}
