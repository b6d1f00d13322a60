// Cross-process locks over the state dir (proper-lockfile: an atomic mkdir whose mtime the
// holder keeps fresh, so a crashed holder's lock goes stale). Two uses: one daemon per state
// dir, and read-modify-write of a shared state file by the daemon and a terminal chat.
import { hostname } from 'node:os';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import pRetry from 'p-retry';
import type { LockOptions } from 'proper-lockfile';
import * as z from 'zod';
import { StateDirBusy } from './errors.ts';
import type { Logger } from './log/logger.ts';
import { readJsonFile, writeFileAtomic } from './state-store.ts';

/** A lock whose holder stopped refreshing it for this long is stale (the holder died). */
const STALE_MS = 10_000;
/** Long enough to outwait a stale lock of a holder that crashed mid-change. */
const CHANGE_RETRIES = { retries: 40, factor: 1.3, minTimeout: 10, maxTimeout: 1_000 };

/** proper-lockfile loads with the first lock: a decision that takes none does not pay for it. */
async function lock(file: string, options: LockOptions): Promise<() => Promise<void>> {
  const { default: lockfile } = await import('proper-lockfile');
  return lockfile.lock(file, options);
}

/**
 * Runs `change` while holding the lock on `file` (which need not exist), so a read-modify-write
 * by another process never interleaves with this one. Only a lock someone else holds is waited
 * for: a lock that cannot be made (a read-only or full state dir) fails at once, where
 * proper-lockfile's own retries would hold the turn half a minute before failing anyway.
 */
export async function withFileLock<T>(file: string, change: () => Promise<T>): Promise<T> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const release = await pRetry(() => lock(file, { realpath: false, stale: STALE_MS }), {
    ...CHANGE_RETRIES,
    shouldRetry: (error) => (error as NodeJS.ErrnoException).code === 'ELOCKED',
  });
  try {
    return await change();
  } finally {
    await release().catch(() => undefined);
  }
}

const ownerSchema = z.lazy(() =>
  z.strictObject({
    v: z.literal(1),
    pid: z.number().int().positive(),
    host: z.string(),
    since: z.iso.datetime(),
  }),
);
type Owner = z.infer<typeof ownerSchema>;

/** The daemon holding a state dir. */
export interface StateDirLease {
  release(): Promise<void>;
}

function alive(owner: Owner): boolean {
  if (owner.host !== hostname()) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Makes this process the one daemon of `dir`, or throws StateDirBusy naming the one that is
 * (pid, since when). A holder that died without releasing (kill -9) is waited out, no longer
 * than its lock takes to go stale.
 */
export async function claimStateDir(dir: string, logger: Logger): Promise<StateDirLease> {
  const target = join(dir, 'daemon');
  const ownerFile = join(dir, 'daemon.json');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const options = {
    realpath: false,
    stale: STALE_MS,
    onCompromised: (error: Error) =>
      logger.error({ err: error, dir }, 'the daemon lock on the state dir was lost'),
  };
  let release: () => Promise<void>;
  try {
    release = await lock(target, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    const read = await readJsonFile(ownerFile, ownerSchema);
    const owner = read.kind === 'ok' ? read.value : null;
    if (owner === null || alive(owner)) {
      const who =
        owner === null
          ? 'another process'
          : `pid ${String(owner.pid)} on ${owner.host}, since ${owner.since}`;
      throw new StateDirBusy(
        `Another Custode daemon (${who}) already serves the state dir ${dir}. Fix: stop that daemon first, or give this one its own XDG_STATE_HOME.`,
      );
    }
    logger.warn(
      { pid: owner.pid, since: owner.since },
      'the previous daemon ended without releasing the state dir; waiting for its lock to go stale',
    );
    release = await lock(target, {
      ...options,
      retries: { retries: 30, minTimeout: 500, maxTimeout: 500 },
    });
  }
  const owner: Owner = {
    v: 1,
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
  };
  await writeFileAtomic(ownerFile, `${JSON.stringify(owner)}\n`);
  return { release: () => release() };
}
