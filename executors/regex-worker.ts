// Model-supplied regular expressions run in a worker thread under a deadline: a catastrophic
// pattern such as ^(a+)+$ would otherwise freeze the daemon's event loop, and every channel
// with it. The worker source is plain CommonJS so it runs without a TypeScript loader.
import { ExecutorTimeout } from '../runtime/errors.ts';

const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const regex = new RegExp(workerData.pattern, workerData.flags);
parentPort.on('message', (lines) => {
  const hits = [];
  for (let i = 0; i < lines.length; i += 1) if (regex.test(lines[i])) hits.push(i);
  parentPort.postMessage(hits);
});`;

/** Matches lines against one pattern off the main thread; one call at a time. */
export interface LineMatcher {
  /** Indexes of the matching lines; rejects with ExecutorTimeout once the deadline has passed. */
  match(lines: readonly string[]): Promise<number[]>;
  close(): Promise<void>;
}

/** A matcher for an already-validated pattern, giving up at `deadline` (epoch ms). */
export function createLineMatcher(pattern: string, flags: string, deadline: number): LineMatcher {
  // node:worker_threads loads with the first search, not with every start.
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const worker = new Worker(workerSource, { eval: true, workerData: { pattern, flags } });
  return {
    match(lines) {
      return new Promise((resolve, reject) => {
        const cleanup = (): void => {
          clearTimeout(timer);
          worker.off('message', onMessage);
          worker.off('error', onError);
        };
        const onMessage = (hits: number[]): void => {
          cleanup();
          resolve(hits);
        };
        const onError = (error: Error): void => {
          cleanup();
          reject(error);
        };
        const timer = setTimeout(
          () => {
            cleanup();
            void worker.terminate();
            reject(
              new ExecutorTimeout(
                `the pattern took too long to match (sandbox.default_timeout_ms); use a simpler regular expression`,
              ),
            );
          },
          Math.max(0, deadline - Date.now()),
        );
        worker.on('message', onMessage);
        worker.on('error', onError);
        worker.postMessage(lines);
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}
