// Files that calls without a card wrote, until a person has seen them. Project code (npm test,
// make, ./build.sh) runs without a card only in a work tree holding none of them: a new
// Makefile, an appended test script or a copied interpreter is code no person approved, and
// running it uncarded would let a model approve its own program. The list survives restarts
// (one JSON file in the state dir) and keeps a file that is gone (git can put it back).
import { join } from 'node:path';
import * as z from 'zod';
import type { Logger } from '../../log/logger.ts';
import { stateDir } from '../../paths.ts';
import { readTextFileSync, safeJson, writeFileAtomic } from '../../state-store.ts';
import { withFileLock } from '../../state-lock.ts';

/** The record of unreviewed writes. */
export interface UnreviewedWrites {
  /** Every recorded path, newest first (gone or not: git can put a file back), or why the record is unknown. */
  pending(): string[];
  /** Remember paths a call without a card is about to write; resolves once on disk, else rejects. */
  record(paths: readonly string[]): Promise<void>;
  /** A call no person saw may write anywhere it could (an always-allow rule's shell command). */
  recordUnseen(): Promise<void>;
  /** A person approved project code over the pending writes: they have been put before them. */
  clear(): Promise<void>;
}

const fileSchema = z.lazy(() =>
  z.strictObject({
    v: z.literal(1),
    paths: z.array(z.string()),
    unknown: z.string().nullable().default(null),
  }),
);

/** The record's file: $XDG_STATE_HOME/custode/unreviewed-writes.json. */
export function unreviewedWritesFile(env: NodeJS.ProcessEnv): string {
  return join(stateDir(env), 'unreviewed-writes.json');
}

/** Past this many paths the record stops listing and fails closed instead of forgetting. */
const MAX_PATHS = 10_000;

/** A record that could not be read. */
export const LOST_RECORD = '(the record of writes without approval could not be read)';
const OVERFLOW = `(more than ${String(MAX_PATHS)} files written without approval)`;
const UNSEEN = '(a command an always-allow rule let through, which may have written anywhere)';

type Record = { readonly paths: readonly string[]; readonly unknown: string | null };

/**
 * Open the record. The file is the only copy, read at every question and rewritten at every
 * change, so the daemon and a terminal chat sharing a state dir see each other's writes. It
 * fails closed: a corrupt file, an overflow or an unseen write make every project-code call
 * ask until a person approves one; a corrupt file is reported once.
 */
export function openUnreviewedWrites(file: string, logger: Logger): UnreviewedWrites {
  let reported = false;
  const read = (): Record => {
    const text = readTextFileSync(file);
    if (text === null) return { paths: [], unknown: null };
    const parsed = fileSchema.safeParse(safeJson(text));
    if (parsed.success) return parsed.data;
    if (!reported) logger.error({ file }, 'unreviewed-writes record is corrupt; failing closed');
    reported = true;
    return { paths: [], unknown: LOST_RECORD };
  };
  let writing: Promise<void> = Promise.resolve();
  // Changes run one at a time; a change that cannot be saved rejects (its caller must not run
  // the write it was recording) without stopping the ones after it.
  const change = (next: (current: Record) => Record): Promise<void> => {
    // Under the file's lock, re-read inside it: a terminal chat and the daemon share the record.
    const done = writing.then(() =>
      withFileLock(file, () => {
        const record = next(read());
        return writeFileAtomic(file, JSON.stringify({ v: 1, ...record }));
      }),
    );
    writing = done.catch((error: unknown) => {
      logger.error({ err: error, file }, 'cannot save the unreviewed-writes record');
    });
    return done;
  };

  return {
    pending() {
      const { paths, unknown } = read();
      const newest = [...paths].reverse();
      return unknown === null ? newest : [unknown, ...newest];
    },
    record(written) {
      return change(({ paths, unknown }) => {
        const all = [...new Set([...paths, ...written])];
        return all.length > MAX_PATHS ? { paths: [], unknown: OVERFLOW } : { paths: all, unknown };
      });
    },
    recordUnseen() {
      return change(({ paths }) => ({ paths, unknown: UNSEEN }));
    },
    clear() {
      return change(() => ({ paths: [], unknown: null }));
    },
  };
}
