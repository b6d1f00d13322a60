// Files that calls without a card wrote, until a person has seen them. Project code (npm test,
// make, ./build.sh) runs without a card only in a work tree holding none of them: a new
// Makefile, an appended test script or a copied interpreter is code no person approved, and
// running it uncarded would let a model approve its own program. The list survives restarts
// (one JSON file in the state dir) and forgets a file once it is gone.
import { join } from 'node:path';
import { z } from 'zod';
import type { Logger } from '../../log/logger.ts';
import { stateDir } from '../../paths.ts';
import { readJsonFile, writeFileAtomic } from '../../state-store.ts';
import { isUnder } from '../../vaglio/normalize-path.ts';

/** The record of unreviewed writes. */
export interface UnreviewedWrites {
  /** Unreviewed paths that still exist below `root` (or a note that the record was lost). */
  below(root: string): string[];
  /** Remember paths a call without a card is about to write; resolves once it is on disk. */
  record(paths: readonly string[]): Promise<void>;
  /** A person approved project code in `root`: what is below it has been put before them. */
  clear(root: string): Promise<void>;
}

const fileSchema = z.strictObject({ v: z.literal(1), paths: z.array(z.string()) });

/** The record's file: $XDG_STATE_HOME/custode/unreviewed-writes.json. */
export function unreviewedWritesFile(env: NodeJS.ProcessEnv): string {
  return join(stateDir(env), 'unreviewed-writes.json');
}

/** Stays bounded: the oldest entries go first. */
const MAX_PATHS = 10_000;

/** A record that could not be read: every work tree counts as holding unreviewed files. */
export const LOST_RECORD = '(the record of writes without approval could not be read)';

/**
 * Load the record; a corrupt file fails closed (every work tree asks until a person approves
 * project code there) and is reported once through the logger.
 */
export async function loadUnreviewedWrites(
  file: string,
  exists: (path: string) => boolean,
  logger: Logger,
): Promise<UnreviewedWrites> {
  const read = await readJsonFile(file, fileSchema);
  const paths = new Set(read.kind === 'ok' ? read.value.paths : []);
  let lost = read.kind === 'corrupt';
  if (read.kind === 'corrupt')
    logger.error(
      { file, issues: read.issues },
      'unreviewed-writes record is corrupt; failing closed',
    );
  let writing: Promise<void> = Promise.resolve();

  const save = (): Promise<void> => {
    const text = JSON.stringify({ v: 1, paths: [...paths] });
    writing = writing
      .then(() => writeFileAtomic(file, text))
      .catch((error: unknown) => {
        logger.error({ err: error, file }, 'cannot save the unreviewed-writes record');
      });
    return writing;
  };

  return {
    below(root) {
      if (lost) return [LOST_RECORD];
      const found: string[] = [];
      for (const path of paths) {
        if (!isUnder(path, root)) continue;
        if (exists(path)) found.push(path);
        else paths.delete(path);
      }
      return found;
    },
    async record(written) {
      for (const path of written) {
        paths.delete(path);
        paths.add(path);
      }
      for (const path of paths) {
        if (paths.size <= MAX_PATHS) break;
        paths.delete(path);
      }
      await save();
    },
    async clear(root) {
      for (const path of paths) if (isUnder(path, root)) paths.delete(path);
      lost = false;
      await save();
    },
  };
}
