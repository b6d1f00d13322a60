// Who may talk to the bot: the configured allowed_users plus people who paired with the
// one-time code the daemon logs at start. Paired users are persisted under the state dir.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { readTextFile, writeFileAtomic } from '../../runtime/state-store.ts';
import type { Logger } from '../../runtime/log/logger.ts';

const pairedSchema = z.strictObject({ v: z.literal(1), users: z.array(z.number().int()) });

/** Wrong codes tolerated before the code is replaced (it is logged again, fresh). */
const MAX_WRONG_CODES = 5;

function sameCode(attempt: string, code: string): boolean {
  const a = Buffer.from(attempt);
  const b = Buffer.from(code);
  return a.length === b.length && timingSafeEqual(a, b);
}

export type PairResult = 'paired' | 'already_allowed' | 'wrong_code';

export interface TelegramAccess {
  isAllowed(userId: number): boolean;
  /** Try the one-time code for `userId`; a success consumes it and a new one is logged. */
  pair(userId: number, code: string): Promise<PairResult>;
  /** True the first time a stranger is seen in this run: they get one polite refusal. */
  firstRefusal(userId: number): boolean;
}

/** Access control for one daemon run; `dir` holds paired.json. */
export async function createTelegramAccess(options: {
  allowed: readonly number[];
  dir: string;
  logger: Logger;
}): Promise<TelegramAccess> {
  const file = join(options.dir, 'paired.json');
  const text = await readTextFile(file);
  let raw: unknown;
  try {
    raw = text === null ? null : JSON.parse(text);
  } catch {
    raw = undefined;
  }
  const parsed = text === null ? null : pairedSchema.safeParse(raw);
  if (parsed !== null && !parsed.success) {
    options.logger.warn(
      { file },
      'telegram paired users file is invalid; only allowed_users may talk until someone pairs again',
    );
  }
  const paired = new Set(parsed?.success === true ? parsed.data.users : []);
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

  return {
    isAllowed: (userId) => allowed.has(userId) || paired.has(userId),
    async pair(userId, attempt) {
      if (allowed.has(userId) || paired.has(userId)) return 'already_allowed';
      if (!sameCode(attempt, code)) {
        wrong += 1;
        if (wrong >= MAX_WRONG_CODES) freshCode();
        return 'wrong_code';
      }
      paired.add(userId);
      refused.delete(userId);
      await writeFileAtomic(file, `${JSON.stringify({ v: 1, users: [...paired] })}\n`);
      options.logger.info({ user: userId }, 'telegram user paired');
      freshCode();
      return 'paired';
    },
    firstRefusal(userId) {
      if (refused.has(userId)) return false;
      refused.add(userId);
      return true;
    },
  };
}
