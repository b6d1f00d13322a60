// Who may talk to the bot: the configured allowed_users, plus people who paired. A stranger
// gets a one-time code that the owner approves with `custode pair approve <code>`; the code the
// daemon logs at start stays as a fallback (`/pair <code>` sent to the bot). Paired users live
// in the channel's pairing file, read at each question, so approvals need no restart.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Logger } from '../../runtime/log/logger.ts';
import { createPairingStore, pairingFile, type PairingStore } from '../pairing/pairing-store.ts';

/** Wrong codes tolerated before the log code is replaced (it is logged again, fresh). */
const MAX_WRONG_CODES = 5;

function sameCode(attempt: string, code: string): boolean {
  const a = Buffer.from(attempt);
  const b = Buffer.from(code);
  return a.length === b.length && timingSafeEqual(a, b);
}

export type PairResult = 'paired' | 'already_allowed' | 'wrong_code';

export interface TelegramAccess {
  isAllowed(userId: number): Promise<boolean>;
  /** Try the daemon-log code for `userId`; a success consumes it and a new one is logged. */
  pair(userId: number, code: string, label?: string): Promise<PairResult>;
  /** The stranger's code for `custode pair approve` (`fresh`: not given to them before). */
  /** Their pairing code (see PairingStore.request); null when they are paired by now. */
  request(userId: number, label?: string): Promise<{ code: string; fresh: boolean } | null>;
  /** True the first time a stranger is seen in this run: they get one polite refusal. */
  firstRefusal(userId: number): boolean;
}

/** Access control for one daemon run; `stateDir` holds telegram/paired.json. */
export function createTelegramAccess(options: {
  allowed: readonly number[];
  stateDir: string;
  logger: Logger;
  store?: PairingStore;
}): TelegramAccess {
  const store = options.store ?? createPairingStore(pairingFile(options.stateDir, 'telegram'));
  const allowed = new Set(options.allowed);
  const refused = new Set<number>();
  let code = '';
  let wrong = 0;

  function freshCode(): void {
    code = randomBytes(6).toString('hex');
    wrong = 0;
    options.logger.info(
      { pairing_code: code },
      `telegram pairing code: send "/pair ${code}" to the bot from your account`,
    );
  }
  freshCode();

  const isAllowed = async (userId: number): Promise<boolean> =>
    allowed.has(userId) || (await store.isPaired(String(userId)));

  return {
    isAllowed,
    async pair(userId, attempt, label) {
      if (await isAllowed(userId)) return 'already_allowed';
      if (!sameCode(attempt, code)) {
        wrong += 1;
        if (wrong >= MAX_WRONG_CODES) freshCode();
        return 'wrong_code';
      }
      await store.add(String(userId), label);
      refused.delete(userId);
      options.logger.info({ user: userId }, 'telegram user paired');
      freshCode();
      return 'paired';
    },
    request: (userId, label) => store.request(String(userId), label),
    firstRefusal(userId) {
      if (refused.has(userId)) return false;
      refused.add(userId);
      return true;
    },
  };
}
