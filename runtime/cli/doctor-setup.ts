// The setup checks of `custode doctor` that are about this person's machine and channels:
// roots.write folders that exist, allowlists that name someone real, and someone able to talk.
import { stat } from 'node:fs/promises';
import {
  createPairingStore,
  pairingFile,
  PairingFileCorrupt,
  type PairingChannel,
} from '../../channels/pairing/pairing-store.ts';
import { resolvePath } from '../../executors/resolve-path.ts';
import type { Config } from '../config.ts';
import { stateDir } from '../paths.ts';

/** Where doctor collects what it found; `problem` counts towards the exit code. */
export interface DoctorReport {
  line(text: string): void;
  problem(text: string): void;
}

/** The ids the README and Slack's docs use as examples: never a real person's. */
const PLACEHOLDER_IDS: Readonly<Record<PairingChannel, readonly string[]>> = {
  telegram: ['123456789', '12345678', '1234567890', '0'],
  slack: ['U0123456789', 'U12345678', 'U123456789', 'UXXXXXXXX'],
};

/** Each roots.write folder must exist: a write there fails otherwise, after the card. */
export async function checkWriteRoots(
  config: Config,
  env: NodeJS.ProcessEnv,
  report: DoctorReport,
): Promise<void> {
  for (const root of config.roots.write) {
    const path = resolvePath(root, env);
    const info = await stat(path).catch(() => null);
    if (info === null)
      report.problem(
        `roots.write: ${root} (${path}) does not exist, so nothing can be written there. Fix: mkdir -p ${path}, or remove it from roots.write.`,
      );
    else if (!info.isDirectory())
      report.problem(`roots.write: ${root} (${path}) is not a directory. Fix: name a directory.`);
  }
}

async function pairedCount(
  channel: PairingChannel,
  env: NodeJS.ProcessEnv,
  report: DoctorReport,
): Promise<number> {
  const store = createPairingStore(pairingFile(stateDir(env), channel));
  try {
    return (await store.read()).users.length;
  } catch (error) {
    if (!(error instanceof PairingFileCorrupt)) throw error;
    report.problem(`${channel} pairing: ${error.message}`);
    return 0;
  }
}

/** Allowlists with real ids, and at least one person able to talk to each enabled channel. */
export async function checkPeople(
  config: Config,
  env: NodeJS.ProcessEnv,
  report: DoctorReport,
): Promise<void> {
  for (const channel of ['telegram', 'slack'] as const) {
    const settings = config.channels[channel];
    if (!settings.enabled) continue;
    const listed = [...settings.allowed_users, ...settings.approvers].map(String);
    for (const id of listed.filter((one) => PLACEHOLDER_IDS[channel].includes(one)))
      report.problem(
        `channels.${channel}: ${id} is the example id from the README, not yours. Fix: put your own id there (README: ${channel === 'telegram' ? 'Telegram' : 'Slack'}), or remove it and pair.`,
      );
    const paired = await pairedCount(channel, env, report);
    report.line(
      `  ${channel}: ${String(settings.allowed_users.length)} allowed in the config, ${String(paired)} paired`,
    );
    if (settings.allowed_users.length === 0 && paired === 0)
      report.problem(
        `${channel} is enabled but nobody may talk to the bot yet (channels.${channel}.allowed_users is empty and nobody paired). Fix: add your id to allowed_users, or start the daemon, message the bot and run \`custode pair approve <code>\` with the code it answers.`,
      );
  }
}
