// `custode doctor` on the channels' outboxes: messages a channel did not take and the daemon
// still retries are a channel failing now (down, blocked, a token gone bad), said with when
// it started and the last error.
import { join } from 'node:path';
import type { Config } from '../config.ts';
import { createOutboxStore } from '../outbox/outbox-store.ts';
import { stateDir } from '../paths.ts';
import { describeWriteFailure } from '../state-store.ts';
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
