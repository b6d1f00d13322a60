// Pending approvals on disk: one JSON file per card under the state dir, so a restart
// between the card and the press still resumes the turn. A press claims the file by
// renaming it to `<id>.taken` (atomic, also across processes); the tombstone answers replays.
// A tombstone keeps only its id and when it was taken (the turn state it held goes), and
// there are at most `maxTombstones` of them, none older than 7 days: the dir stays bounded.
import { randomBytes } from 'node:crypto';
import { readdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { createLogger, type Logger } from '../log/logger.ts';
import type {
  ApprovalStore,
  DamagedApproval,
  MessageRef,
  PendingApproval,
  TakeResult,
} from './types.ts';
import {
  isMissing,
  readJsonFile,
  readTextFile,
  safeJson,
  syncDir,
  writeFileAtomic,
} from '../state-store.ts';
import { withFileLock } from '../state-lock.ts';

/** 16 random bytes in base64url: 22 characters, so `a:<id>:o` fits Telegram's 64-byte callback_data. */
const ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;
/** Tombstones older than this are pruned; a replay after that answers `unknown`, still refused. */
const TOMBSTONE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** At most 5,000 tombstones of ~80 bytes (20 MB of 4 KiB blocks); beyond it the oldest go (a replay of one then answers `unknown`, still refused). */
const MAX_TOMBSTONES = 5_000;

/** A fresh unguessable approval id (128 bits, base64url). */
export function newApprovalId(): string {
  return randomBytes(16).toString('base64url');
}

/** Whether `value` has the shape of an approval id (anything else never touches the disk). */
export function isApprovalId(value: string): boolean {
  return ID_PATTERN.test(value);
}

/** A card as saved (pending approvals, undelivered cards in the outbox). */
export const cardSchema = z.object({
  kind: z.enum(['approval', 'refusal']),
  headline: z.string(),
  verb: z.string(),
  target: z.string(),
  reversible: z.boolean(),
  undo: z.string().optional(),
  network: z.string().optional(),
  executorClass: z.string(),
  executor: z.string(),
  detail: z.string(),
  always: z.string().optional(),
  score: z.number(),
  reason: z.string(),
  advice: z.string().optional(),
});

const callSchema = z.object({
  executor: z.string(),
  args: z.unknown(),
  intent: z.string(),
  context: z.record(z.string(), z.unknown()).optional(),
  sender: z.string().optional(),
  approvedBy: z.string().optional(),
});

/** The chat a damaged record still names, when that much of it reads. */
const chatOfSchema = z.object({
  channel: z.enum(['local', 'telegram', 'slack']),
  chatId: z.string(),
});

/** The on-disk record (v: 1). */
export const pendingApprovalSchema = z.object({
  v: z.literal(1),
  id: z.string().regex(ID_PATTERN),
  channel: z.enum(['local', 'telegram', 'slack']),
  chatId: z.string(),
  sender: z.string(),
  call: callSchema,
  card: cardSchema,
  turnState: z.unknown(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  messageRef: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});

/** The approval store over `dir` (created on first write). Corrupt files are logged and skipped. */
export function createApprovalStore(
  dir: string,
  options: { logger?: Logger; maxTombstones?: number } = {},
): ApprovalStore {
  const logger = options.logger ?? createLogger();
  const maxTombstones = options.maxTombstones ?? MAX_TOMBSTONES;
  const locks = new Map<string, Promise<void>>();
  const pendingPath = (id: string): string => join(dir, `${id}.json`);
  const takenPath = (id: string): string => join(dir, `${id}.taken`);

  // Changes to one card run one after another in this process, and under its file lock across
  // processes: a card ref saved late must not bring back a card another process just took.
  function withLock<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const previous = locks.get(id) ?? Promise.resolve();
    const run = previous.then(() => withFileLock(pendingPath(id), fn));
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    locks.set(id, tail);
    void tail.then(() => {
      if (locks.get(id) === tail) locks.delete(id);
    });
    return run;
  }

  /** The record at `path`: null when missing or corrupt (corrupt is reported). */
  async function readRecord(path: string): Promise<PendingApproval | null> {
    const read = await readJsonFile(path, pendingApprovalSchema);
    if (read.kind === 'missing') return null;
    if (read.kind === 'corrupt') {
      logger.warn({ file: path, issues: read.issues }, 'corrupt pending approval skipped');
      return null;
    }
    return read.value as PendingApproval;
  }

  async function exists(path: string): Promise<boolean> {
    try {
      await stat(path);
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  /** Drops tombstones older than the TTL, then the oldest beyond `maxTombstones`. */
  async function pruneTombstones(names: readonly string[], now: Date): Promise<void> {
    const kept: { path: string; mtimeMs: number }[] = [];
    for (const name of names.filter((n) => n.endsWith('.taken'))) {
      const path = join(dir, name);
      const info = await stat(path).catch(() => null);
      if (info === null) continue;
      if (now.getTime() - info.mtimeMs > TOMBSTONE_TTL_MS)
        await unlink(path).catch(() => undefined);
      else kept.push({ path, mtimeMs: info.mtimeMs });
    }
    const excess = kept
      .sort((a, b) => a.mtimeMs - b.mtimeMs)
      .slice(0, Math.max(0, kept.length - maxTombstones));
    for (const { path } of excess) await unlink(path).catch(() => undefined);
  }

  async function names(): Promise<string[]> {
    try {
      return await readdir(dir);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
  }

  const cardFiles = async (): Promise<string[]> =>
    (await names()).filter((n) => n.endsWith('.json') && isApprovalId(n.slice(0, -5)));

  /** A damaged card file moved aside, with the chat it names if that part still reads. */
  async function setAside(name: string): Promise<DamagedApproval | null> {
    const file = join(dir, name);
    const read = await readJsonFile(file, pendingApprovalSchema);
    if (read.kind !== 'corrupt') return null;
    const text = await readTextFile(file);
    const chat = chatOfSchema.safeParse(safeJson(text ?? ''));
    await rename(file, `${file}.damaged`);
    return { file, chat: chat.success ? chat.data : null };
  }

  async function list(): Promise<readonly PendingApproval[]> {
    const records: PendingApproval[] = [];
    for (const name of await cardFiles()) {
      const record = await readRecord(join(dir, name));
      if (record !== null) records.push(record);
    }
    return records.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  return {
    async put(pending) {
      const checked = pendingApprovalSchema.parse(pending);
      await writeFileAtomic(pendingPath(checked.id), `${JSON.stringify(pending)}\n`);
    },

    setMessageRef(id: string, ref: MessageRef) {
      return withLock(id, async () => {
        if (!isApprovalId(id)) return;
        const record = await readRecord(pendingPath(id));
        // Already pressed (or expired) before the card's ref came back: nothing left to annotate.
        if (record === null) return;
        await writeFileAtomic(
          pendingPath(id),
          `${JSON.stringify({ ...record, messageRef: ref })}\n`,
        );
      });
    },

    take(id, presser, approvers, now = new Date()): Promise<TakeResult> {
      if (!isApprovalId(id)) return Promise.resolve({ kind: 'unknown' });
      return withLock(id, async (): Promise<TakeResult> => {
        const pending = await readRecord(pendingPath(id));
        if (pending === null) {
          return (await exists(takenPath(id))) ? { kind: 'already_resolved' } : { kind: 'unknown' };
        }
        if (presser !== pending.sender && !approvers.includes(presser))
          return { kind: 'not_yours' };
        try {
          await rename(pendingPath(id), takenPath(id));
        } catch (error) {
          // Another process renamed it first: it won the press.
          if (isMissing(error)) return { kind: 'already_resolved' };
          throw error;
        }
        await syncDir(dir);
        // The claim is the rename; the tombstone need not carry the turn (its whole history).
        await writeFileAtomic(
          takenPath(id),
          `${JSON.stringify({ v: 1, id, takenAt: now.toISOString() })}\n`,
          { durable: false },
        ).catch((error: unknown) => {
          // The press is decided either way; a whole tombstone only costs space until pruned.
          logger.warn({ err: error, approval: id }, 'could not compact a used approval record');
        });
        return Date.parse(pending.expiresAt) <= now.getTime()
          ? { kind: 'expired', pending }
          : { kind: 'taken', pending };
      });
    },

    // The sweep's call, so old tombstones are pruned here rather than on every message.
    async expired(now = new Date()) {
      await pruneTombstones(await names(), now);
      return (await list()).filter((p) => Date.parse(p.expiresAt) <= now.getTime());
    },

    list: () => list(),

    async setAsideDamaged() {
      const damaged: DamagedApproval[] = [];
      for (const name of await cardFiles()) {
        const aside = await withLock(name.slice(0, -5), () => setAside(name));
        if (aside !== null) damaged.push(aside);
      }
      return damaged;
    },
  };
}
