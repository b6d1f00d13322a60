// The outbox on disk: one JSON file per undelivered item under
// $XDG_STATE_HOME/custode/outbox/<channel>, written atomically, removed once delivered or
// given up. A file that does not parse is moved aside (`.corrupt`) and reported, never
// retried blindly and never deleted.
import { readdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { isMissing, readJsonFile, writeFileAtomic } from '../state-store.ts';
import { outboxRecordSchema, type OutboxRecord } from './outbox-record.ts';

export interface OutboxStore {
  save(record: OutboxRecord): Promise<void>;
  remove(id: string): Promise<void>;
  /**
   * Every saved record, oldest first, and the files that could not be read (moved aside as
   * `.corrupt` unless `look` only: doctor reads without changing anything).
   */
  load(options?: { look?: boolean }): Promise<{ records: OutboxRecord[]; corrupt: string[] }>;
}

/** The outbox of one channel, in `dir` (created on the first save). */
export function createOutboxStore(dir: string): OutboxStore {
  const path = (id: string): string => join(dir, `${id}.json`);
  return {
    async save(record) {
      await writeFileAtomic(
        path(record.id),
        `${JSON.stringify(outboxRecordSchema.parse(record))}\n`,
      );
    },
    async remove(id) {
      await unlink(path(id)).catch((error: unknown) => {
        if (!isMissing(error)) throw error;
      });
    },
    async load(options = {}) {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (error) {
        if (isMissing(error)) return { records: [], corrupt: [] };
        throw error;
      }
      const records: OutboxRecord[] = [];
      const corrupt: string[] = [];
      for (const name of names.filter((n) => n.endsWith('.json'))) {
        const file = join(dir, name);
        const read = await readJsonFile(file, outboxRecordSchema);
        if (read.kind === 'ok') records.push(read.value);
        else if (read.kind === 'corrupt') {
          if (options.look !== true) await rename(file, `${file}.corrupt`).catch(() => undefined);
          corrupt.push(file);
        }
      }
      return { records: records.sort((a, b) => a.seq - b.seq), corrupt };
    },
  };
}
