// Files that calls without a card wrote, until a person has seen them. Project code (npm test,
// make, ./build.sh) runs without a card only in a work tree holding none of them: a new
// Makefile, an appended test script or a copied interpreter is code no person approved, and
// running it uncarded would let a model approve its own program. The list survives restarts
// (one JSON file in the state dir) and keeps a file that is gone (git can put it back).
import { join } from 'node:path';
import { z } from 'zod';
import type { Logger } from '../../log/logger.ts';
import { stateDir } from '../../paths.ts';
import { readJsonFile, writeFileAtomic } from '../../state-store.ts';

/** The record of unreviewed writes. */
export interface UnreviewedWrites {
  /** Every recorded path (gone or not: git can put a file back), or why the record is unknown. */
  pending(): string[];
  /** Remember paths a call without a card is about to write; resolves once it is on disk. */
  record(paths: readonly string[]): Promise<void>;
  /** A call no person saw may write anywhere it could (an always-allow rule's shell command). */
  recordUnseen(): Promise<void>;
  /** A person approved project code over the pending writes: they have been put before them. */
  clear(): Promise<void>;
}

const fileSchema = z.strictObject({
  v: z.literal(1),
  paths: z.array(z.string()),
  unknown: z.string().nullable().default(null),
});

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

/**
 * Load the record. It fails closed: a corrupt file, an overflow or an unseen write make every
 * project-code call ask until a person approves one; a corrupt file is reported once.
 */
export async function loadUnreviewedWrites(
  file: string,
  logger: Logger,
): Promise<UnreviewedWrites> {
  const read = await readJsonFile(file, fileSchema);
  const paths = new Set(read.kind === 'ok' ? read.value.paths : []);
  let unknown: string | null = read.kind === 'ok' ? read.value.unknown : null;
  if (read.kind === 'corrupt') {
    unknown = LOST_RECORD;
    logger.error(
      { file, issues: read.issues },
      'unreviewed-writes record is corrupt; failing closed',
    );
  }
  let writing: Promise<void> = Promise.resolve();

  const save = (): Promise<void> => {
    const text = JSON.stringify({ v: 1, paths: [...paths], unknown });
    writing = writing
      .then(() => writeFileAtomic(file, text))
      .catch((error: unknown) => {
        logger.error({ err: error, file }, 'cannot save the unreviewed-writes record');
      });
    return writing;
  };

  return {
    pending() {
      return unknown === null ? [...paths] : [unknown, ...paths];
    },
    async record(written) {
      for (const path of written) paths.add(path);
      if (paths.size > MAX_PATHS) {
        paths.clear();
        unknown = OVERFLOW;
      }
      await save();
    },
    async recordUnseen() {
      unknown = UNSEEN;
      await save();
    },
    async clear() {
      paths.clear();
      unknown = null;
      await save();
    },
  };
}
