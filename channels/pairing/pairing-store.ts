// Who paired with a channel, and who asked to: one small file per channel under the state dir,
// shared by the daemon (which records a stranger's request and checks senders) and
// `custode pair` (which approves, lists and revokes). Every question reads the file, so an
// approval or a revocation takes effect at the sender's next message, without a restart.
import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import * as z from 'zod';
import { ConfigError } from '../../runtime/errors.ts';
import { withFileLock } from '../../runtime/state-lock.ts';
import { readJsonFile, writeFileAtomic } from '../../runtime/state-store.ts';

/** The channels whose strangers can pair. */
export const PAIRING_CHANNELS = ['telegram', 'slack'] as const;
export type PairingChannel = (typeof PAIRING_CHANNELS)[number];

/** How long a stranger's code stays valid. */
export const REQUEST_TTL_MS = 60 * 60 * 1000;
/** Requests kept at once: a crowd of strangers cannot grow the file without bound. */
const MAX_REQUESTS = 20;
/** No 0/O, 1/I/L: a code is read off one screen and typed into another. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

const userSchema = z.strictObject({
  id: z.string().min(1),
  label: z.string().optional(),
  paired_at: z.string(),
});
const requestSchema = z.strictObject({
  code: z.string(),
  id: z.string().min(1),
  label: z.string().optional(),
  expires_at: z.string(),
});
const recordSchema = z.strictObject({
  v: z.literal(2),
  users: z.array(userSchema),
  requests: z.array(requestSchema),
});
/** The first format (Telegram only): just the paired ids. */
const legacySchema = z
  .strictObject({ v: z.literal(1), users: z.array(z.number().int()) })
  .transform((old): PairingRecord => ({
    v: 2,
    users: old.users.map((id) => ({ id: String(id), paired_at: new Date(0).toISOString() })),
    requests: [],
  }));
const fileSchema = z.union([recordSchema, legacySchema]);

export type PairingRecord = z.infer<typeof recordSchema>;
export type PairedUser = z.infer<typeof userSchema>;
export type PairingRequest = z.infer<typeof requestSchema>;

/** The pairing file exists but does not parse: nobody counts as paired, nothing overwrites it. */
export class PairingFileCorrupt extends ConfigError {
  constructor(readonly file: string) {
    super(
      `${file} is not a valid pairing file. Fix: correct it, or delete it (everyone pairs again).`,
    );
  }
}

/** Where a channel's pairing file lives. */
export function pairingFile(stateDir: string, channel: PairingChannel): string {
  return join(stateDir, channel, 'paired.json');
}

function emptyRecord(): PairingRecord {
  return { v: 2, users: [], requests: [] };
}

/** A fresh code like `K7QW-M3XP`. */
function newCode(): string {
  const letters = Array.from({ length: 8 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]);
  return `${letters.slice(0, 4).join('')}-${letters.slice(4).join('')}`;
}

/** A code as typed: case, spaces and dashes do not matter. */
function normalCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

function live(record: PairingRecord, now: Date): PairingRecord {
  return {
    ...record,
    requests: record.requests.filter((request) => Date.parse(request.expires_at) > now.getTime()),
  };
}

export interface PairingStore {
  readonly file: string;
  /** The file's users and live requests (missing file: none; corrupt: PairingFileCorrupt). */
  read(now?: Date): Promise<PairingRecord>;
  /** Whether `id` paired (a corrupt file pairs nobody). */
  isPaired(id: string): Promise<boolean>;
  /**
   * A stranger's code for the owner: their live one, or a new one (`fresh`); null when they are
   * paired by now (another message of theirs paired them while this one waited).
   */
  request(id: string, label?: string, now?: Date): Promise<{ code: string; fresh: boolean } | null>;
  /** Approve a request by its code; null when no live request has it. */
  approve(code: string, now?: Date): Promise<PairedUser | null>;
  /** Pair `id` directly (the daemon-log code): false when it was already paired. */
  add(id: string, label?: string, now?: Date): Promise<boolean>;
  /** Forget a paired user (and their request); false when they were not there. */
  revoke(id: string): Promise<boolean>;
}

/** The pairing store of one file (see pairingFile). */
export function createPairingStore(file: string): PairingStore {
  async function read(now = new Date()): Promise<PairingRecord> {
    const loaded = await readJsonFile(file, fileSchema);
    if (loaded.kind === 'corrupt') throw new PairingFileCorrupt(file);
    return live(loaded.kind === 'ok' ? loaded.value : emptyRecord(), now);
  }

  /** Read, change and write under the lock; `change` returns the new record (or null: no write). */
  function update<T>(
    now: Date,
    change: (record: PairingRecord) => { record: PairingRecord | null; result: T },
  ): Promise<T> {
    return withFileLock(file, async () => {
      const { record, result } = change(await read(now));
      if (record !== null) await writeFileAtomic(file, `${JSON.stringify(record)}\n`);
      return result;
    });
  }

  return {
    file,
    read,
    async isPaired(id) {
      try {
        return (await read()).users.some((user) => user.id === id);
      } catch (error) {
        if (error instanceof PairingFileCorrupt) return false;
        throw error;
      }
    },
    request(id, label, now = new Date()) {
      return update<{ code: string; fresh: boolean } | null>(now, (record) => {
        if (record.users.some((user) => user.id === id)) return { record: null, result: null };
        const pending = record.requests.find((request) => request.id === id);
        if (pending !== undefined)
          return { record: null, result: { code: pending.code, fresh: false } };
        const request: PairingRequest = {
          code: newCode(),
          id,
          ...(label === undefined ? {} : { label }),
          expires_at: new Date(now.getTime() + REQUEST_TTL_MS).toISOString(),
        };
        const requests = [...record.requests, request].slice(-MAX_REQUESTS);
        return { record: { ...record, requests }, result: { code: request.code, fresh: true } };
      });
    },
    approve(code, now = new Date()) {
      const wanted = normalCode(code);
      return update(now, (record) => {
        const request = record.requests.find((r) => normalCode(r.code) === wanted);
        if (request === undefined) return { record: null, result: null };
        const user: PairedUser = {
          id: request.id,
          ...(request.label === undefined ? {} : { label: request.label }),
          paired_at: now.toISOString(),
        };
        return {
          record: {
            ...record,
            users: [...record.users.filter((u) => u.id !== user.id), user],
            requests: record.requests.filter((r) => r.id !== request.id),
          },
          result: user,
        };
      });
    },
    add(id, label, now = new Date()) {
      return update(now, (record) => {
        if (record.users.some((user) => user.id === id)) return { record: null, result: false };
        const user: PairedUser = {
          id,
          ...(label === undefined ? {} : { label }),
          paired_at: now.toISOString(),
        };
        return {
          record: {
            ...record,
            users: [...record.users, user],
            requests: record.requests.filter((r) => r.id !== id),
          },
          result: true,
        };
      });
    },
    revoke(id) {
      return update(new Date(), (record) => {
        const users = record.users.filter((user) => user.id !== id);
        const requests = record.requests.filter((request) => request.id !== id);
        const changed =
          users.length !== record.users.length || requests.length !== record.requests.length;
        return {
          record: changed ? { ...record, users, requests } : null,
          result: users.length !== record.users.length,
        };
      });
    },
  };
}
