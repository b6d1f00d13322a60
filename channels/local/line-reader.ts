// Lines from a stream, one at a time on request: the chat loop asks for the next message
// or for a card answer, and gets null at end of input.
import { createInterface } from 'node:readline';

export interface LineReader {
  /** The next line, or null once the input has ended. */
  next(): Promise<string | null>;
  close(): void;
}

/** A line reader over `input` (piped or a TTY). */
export function createLineReader(input: NodeJS.ReadableStream): LineReader {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY, terminal: false });
  const buffered: string[] = [];
  const waiters: ((line: string | null) => void)[] = [];
  let ended = false;
  lines.on('line', (line) => {
    const waiter = waiters.shift();
    if (waiter) waiter(line);
    else buffered.push(line);
  });
  lines.on('close', () => {
    ended = true;
    for (const waiter of waiters.splice(0)) waiter(null);
  });
  return {
    next() {
      const line = buffered.shift();
      if (line !== undefined) return Promise.resolve(line);
      if (ended) return Promise.resolve(null);
      return new Promise((resolve) => waiters.push(resolve));
    },
    close: () => lines.close(),
  };
}
