// How the remote channels are doing, for the operator: failures in a row per channel and
// kind (polling for updates, delivering messages), when they began and the last error.
// Logged when a run of failures starts to count and when it ends; kept in
// $XDG_STATE_HOME/custode/health.json so `custode doctor` sees it from another process, and
// served on /healthz when enabled.
import { join } from 'node:path';
import * as z from 'zod';
import type { Logger } from '../log/logger.ts';
import { readJsonFile, writeFileAtomic } from '../state-store.ts';

/** From this many failures in a row a channel counts as failing (one is a blip). */
export const FAILING_AFTER = 3;
const WRITE_EVERY_MS = 1_000;

const runSchema = z.object({
  failuresInARow: z.number().int().nonnegative(),
  since: z.iso.datetime().optional(),
  lastError: z.string().optional(),
  /** The success that ended the last run of failures (or the first one). */
  lastOkAt: z.iso.datetime().optional(),
  /** Set when the channel stopped trying (a refused token): failing however few the tries. */
  stoppedAt: z.iso.datetime().optional(),
});

export const healthSchema = z.object({
  v: z.literal(1),
  pid: z.number().int().positive(),
  updatedAt: z.iso.datetime(),
  /** Keyed `<channel> <kind>`, e.g. "telegram polling". */
  runs: z.record(z.string(), runSchema),
});
export type HealthRecord = z.infer<typeof healthSchema>;
type Run = z.infer<typeof runSchema>;

/** What is counted: fetching updates, delivering messages, holding a live connection. */
export type HealthKind = 'polling' | 'delivery' | 'connection';

export interface ChannelHealth {
  failed(channel: string, kind: HealthKind, error: unknown): void;
  /** The channel gave up for good (until a restart): failing from now on, logged once. */
  stopped(channel: string, kind: HealthKind, error: unknown): void;
  succeeded(channel: string, kind: HealthKind): void;
  snapshot(): HealthRecord;
  /** Writes what is pending to disk now (at stop). */
  flush(): Promise<void>;
}

/** Where the daemon keeps its channel health. */
export function healthFile(stateDir: string): string {
  return join(stateDir, 'health.json');
}

const utc = (iso: string | undefined): string =>
  `${(iso ?? '').slice(0, 19).replace('T', ' ')} UTC`;

/** The runs that count as failing, as lines for a person ("telegram polling: 15 failures…"). */
export function failingLines(record: HealthRecord): string[] {
  return Object.entries(record.runs)
    .filter(([, run]) => run.failuresInARow >= FAILING_AFTER || run.stoppedAt !== undefined)
    .map(([name, run]) => {
      const last = run.lastError === undefined ? '' : ` (last: ${run.lastError})`;
      return run.stoppedAt === undefined
        ? `${name}: ${String(run.failuresInARow)} failures in a row since ${utc(run.since)}${last}`
        : `${name}: stopped at ${utc(run.stoppedAt)} until the daemon restarts${last}`;
    });
}

/** The last health the daemon wrote, or null. */
export async function readHealth(stateDir: string): Promise<HealthRecord | null> {
  const read = await readJsonFile(healthFile(stateDir), healthSchema);
  return read.kind === 'ok' ? read.value : null;
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 200);
}

/** The health tracker of this daemon; `now` for tests. */
export function createChannelHealth(
  stateDir: string,
  logger: Logger,
  now: () => Date = () => new Date(),
): ChannelHealth {
  const runs = new Map<string, Run>();
  let timer: NodeJS.Timeout | null = null;
  const snapshot = (): HealthRecord => ({
    v: 1,
    pid: process.pid,
    updatedAt: now().toISOString(),
    runs: Object.fromEntries(runs),
  });
  const write = async (): Promise<void> => {
    timer = null;
    await writeFileAtomic(healthFile(stateDir), `${JSON.stringify(snapshot())}\n`, {
      durable: false,
    }).catch((error: unknown) => logger.warn({ err: error }, 'channel health: write failed'));
  };
  const soon = (): void => {
    if (timer !== null) return;
    timer = setTimeout(() => void write(), WRITE_EVERY_MS);
    timer.unref();
  };
  return {
    failed(channel, kind, error) {
      const name = `${channel} ${kind}`;
      const run = runs.get(name) ?? { failuresInARow: 0 };
      const next: Run = {
        ...run,
        failuresInARow: run.failuresInARow + 1,
        since: run.since ?? now().toISOString(),
        lastError: errorText(error),
      };
      runs.set(name, next);
      if (next.failuresInARow === FAILING_AFTER)
        logger.error(
          { channel, kind, since: next.since, last_error: next.lastError },
          `${name} has failed ${String(FAILING_AFTER)} times in a row`,
        );
      soon();
    },
    stopped(channel, kind, error) {
      const name = `${channel} ${kind}`;
      const run = runs.get(name) ?? { failuresInARow: 0 };
      const at = now().toISOString();
      runs.set(name, {
        ...run,
        failuresInARow: run.failuresInARow + 1,
        since: run.since ?? at,
        lastError: errorText(error),
        stoppedAt: at,
      });
      logger.error(
        { channel, kind, last_error: errorText(error) },
        `${name} has stopped until the daemon restarts`,
      );
      soon();
    },
    succeeded(channel, kind) {
      const name = `${channel} ${kind}`;
      const run = runs.get(name);
      if (run !== undefined && run.failuresInARow >= FAILING_AFTER)
        logger.info(
          { channel, kind, failures: run.failuresInARow },
          `${name} works again after ${String(run.failuresInARow)} failures in a row`,
        );
      runs.set(name, { failuresInARow: 0, lastOkAt: now().toISOString() });
      // Written when a run of failures ends (or the first success), not on every success.
      if (run === undefined || run.failuresInARow > 0) soon();
    },
    snapshot,
    async flush() {
      if (timer === null) return;
      clearTimeout(timer);
      await write();
    },
  };
}
