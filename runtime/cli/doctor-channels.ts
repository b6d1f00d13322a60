// `custode doctor` on how the daemon's channels are doing: messages a channel did not take
// and the daemon still retries (its outbox), and runs of failures in a row the running
// daemon recorded (polling, delivery), each with when it began and the last error.
import { join } from 'node:path';
import type { Config } from '../config.ts';
import { createOutboxStore } from '../outbox/outbox-store.ts';
import { stateDir } from '../paths.ts';
import { describeWriteFailure } from '../state-store.ts';
import { failingLines, readHealth } from '../health/channel-health.ts';
import type { DoctorReport } from './doctor-setup.ts';

/** One line per remote channel with undelivered messages (a problem), or none. */
export async function checkOutboxes(
  config: Config,
  env: NodeJS.ProcessEnv,
  report: DoctorReport,
): Promise<void> {
  for (const channel of ['telegram', 'slack'] as const) {
    const store = createOutboxStore(join(stateDir(env), 'outbox', channel));
    const loaded = await store.load({ look: true }).catch((error: unknown) => {
      // A state dir that cannot be read is reported above, as one that cannot be written.
      report.line(`${channel} outbox: not readable (${describeWriteFailure(error, 'its dir')})`);
      return null;
    });
    if (loaded === null) continue;
    const { records, corrupt } = loaded;
    if (corrupt.length > 0)
      report.problem(
        `${channel} outbox: ${String(corrupt.length)} unreadable entr${corrupt.length === 1 ? 'y' : 'ies'} (${corrupt.join(', ')}). Fix: look at and remove them; the daemon sets them aside as .corrupt.`,
      );
    const oldest = records[0];
    if (oldest === undefined) continue;
    const attempts = records.reduce((sum, record) => sum + record.attempts, 0);
    const last = records.findLast((record) => record.lastError !== undefined)?.lastError;
    report.problem(
      `${channel}: ${String(records.length)} message(s) undelivered since ${oldest.createdAt.slice(0, 16).replace('T', ' ')} UTC (${String(attempts)} failed attempt(s)${last === undefined ? '' : `, last: ${last}`}). The daemon retries them and gives up after ${String(config.channels.outbox.max_age_minutes)} minutes, telling the chat. Fix: check the network and the ${channel} token.`,
    );
  }
}

/** Whether a process with this pid runs (the daemon that wrote the health record). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The running daemon's runs of channel failures, one problem each. */
export async function checkChannelHealth(
  env: NodeJS.ProcessEnv,
  report: DoctorReport,
): Promise<void> {
  const record = await readHealth(stateDir(env)).catch(() => null);
  if (record === null) return;
  const failing = failingLines(record);
  if (!alive(record.pid)) {
    if (failing.length > 0)
      report.line(
        `channels: the last daemon (pid ${String(record.pid)}, not running now) recorded: ${failing.join('; ')}`,
      );
    return;
  }
  for (const line of failing)
    report.problem(
      `${line}. Fix: check the network and the channel's token; the daemon log has each failure.`,
    );
}
