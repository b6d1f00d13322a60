// The outbox of a remote channel: everything a chat is owed (answers, cards, card edits)
// goes out at once when the channel takes it; when it does not (the API is down, answers
// 5xx, or rate-limits past the client's own retries) the delivery is saved on disk and
// retried with back-off, in order per chat, until delivered or too old. What is given up
// is told to the chat once the channel answers again. Saved deliveries survive a restart.
import { randomBytes } from 'node:crypto';
import type { ApprovalCard } from '../approvals/card.ts';
import type { MessageRef } from '../approvals/types.ts';
import type { ChannelHealth } from '../health/channel-health.ts';
import type { Logger } from '../log/logger.ts';
import type { ChannelSink } from '../planner/channel-output.ts';
import { givenUpNotice, refusedNotice, type RemoteChannel } from './given-up.ts';
import type { Delivery, OutboxRecord } from './outbox-record.ts';
import type { OutboxStore } from './outbox-store.ts';

/** How a channel's error reads for the outbox: try again (after a wait), or never. */
export type DeliveryFailure =
  | { readonly kind: 'retry'; readonly why: string; readonly afterMs?: number }
  | {
      readonly kind: 'refused';
      readonly why: string;
      /** Whether the chat can still be written to (a bad message) or not (blocked, gone, bad token). */
      readonly chatReachable: boolean;
    };

/** What the outbox needs to know of approvals: a card posted late gets its ref; a decided one is not posted. */
export interface CardHooks {
  posted(approvalId: string, ref: MessageRef): Promise<void>;
  waiting(approvalId: string): Promise<boolean>;
}

export interface OutboxOptions {
  readonly channel: RemoteChannel;
  /** The channel's own sink (it may retry briefly itself, e.g. on a 429). */
  readonly inner: ChannelSink;
  readonly store: OutboxStore;
  readonly classify: (error: unknown) => DeliveryFailure;
  /** A text in the parts the channel shows as messages (each part is saved and sent on its own). */
  readonly split: (text: string) => string[];
  /** How long an undelivered item is kept before it is given up. */
  readonly maxAgeMs: number;
  readonly cards: CardHooks;
  readonly logger: Logger;
  /** Counts failed deliveries in a row (doctor, /healthz). */
  readonly health?: ChannelHealth;
  readonly now?: () => Date;
}

export interface Outbox extends ChannelSink {
  /** Loads what an earlier run left undelivered and starts retrying. */
  start(): Promise<void>;
  /** Stops retrying (saved items stay on disk for the next start). */
  stop(): Promise<void>;
  /** How many deliveries are waiting, across chats. */
  waiting(): number;
}

const FIRST_RETRY_MS = 500;
const LONGEST_RETRY_MS = 5 * 60_000;
/** A notice about what was given up waits longer than an answer: it is the last word. */
const NOTICE_AGE_MS = 7 * 24 * 60 * 60_000;
const TICK_MS = 250;

interface Queued {
  readonly record: OutboxRecord;
  nextAt: number;
}

/** Exponential back-off: 0.5 s, 1 s, 2 s, … up to 5 minutes. */
function backoffMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);
}

/** Wraps a channel's sink in a persistent outbox. */
export function createOutbox(options: OutboxOptions): Outbox {
  const { channel, inner, store, logger, cards } = options;
  const queues = new Map<string, Queued[]>();
  const lanes = new Map<string, Promise<void>>();
  const now = (): Date => options.now?.() ?? new Date();
  let counter = 0;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  /** Runs `work` after the chat's earlier outbox work: one chat's deliveries never overtake. */
  function inLane<T>(chatId: string, work: () => Promise<T>): Promise<T> {
    const run = (lanes.get(chatId) ?? Promise.resolve()).then(work);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    lanes.set(chatId, tail);
    void tail.then(() => {
      if (lanes.get(chatId) === tail) lanes.delete(chatId);
    });
    return run;
  }

  function newRecord(chatId: string, what: Delivery, maxAgeMs = options.maxAgeMs): OutboxRecord {
    const at = now();
    const seq = at.getTime() * 1000 + (counter++ % 1000);
    return {
      v: 1,
      id: `${String(seq)}-${randomBytes(4).toString('hex')}`,
      seq,
      chatId,
      createdAt: at.toISOString(),
      expiresAt: new Date(at.getTime() + maxAgeMs).toISOString(),
      attempts: 0,
      what,
    };
  }

  /** One try at a delivery, counted in the channel's health. */
  async function attempt(record: OutboxRecord): Promise<MessageRef | null> {
    try {
      const ref = await send(record);
      options.health?.succeeded(channel, 'delivery');
      return ref;
    } catch (error) {
      options.health?.failed(channel, 'delivery', error);
      throw error;
    }
  }

  async function send(record: OutboxRecord): Promise<MessageRef | null> {
    const { chatId, what } = record;
    switch (what.kind) {
      case 'text':
      case 'notice':
        await inner.sendText(chatId, what.text);
        return null;
      case 'card':
        return inner.sendCard(chatId, what.card as ApprovalCard, what.approvalId);
      case 'edit':
        await inner.updateCard(what.ref, what.text);
        return null;
    }
  }

  function queueOf(chatId: string): Queued[] {
    let queue = queues.get(chatId);
    if (queue === undefined) {
      queue = [];
      queues.set(chatId, queue);
    }
    return queue;
  }

  /** Saves a record (best effort: a disk that refuses still leaves it retried in this run). */
  async function save(record: OutboxRecord): Promise<void> {
    await store.save(record).catch((error: unknown) => {
      logger.error(
        { err: error, chatId: record.chatId, channel },
        'outbox could not save an undelivered message; it is retried while the daemon runs but a restart loses it',
      );
    });
  }

  async function forget(record: OutboxRecord): Promise<void> {
    await store.remove(record.id).catch((error: unknown) => {
      logger.warn({ err: error, channel }, 'outbox could not remove a finished entry');
    });
  }

  /** Puts a notice first in the chat's queue (it is about what came before everything queued). */
  async function noticeFirst(chatId: string, text: string): Promise<void> {
    const record = newRecord(chatId, { kind: 'notice', text }, NOTICE_AGE_MS);
    queueOf(chatId).unshift({ record, nextAt: 0 });
    await save(record);
  }

  /**
   * A failed attempt: kept for a later try (true), or given up at once because the channel
   * refused it (false; the chat hears of it when it can be written to).
   */
  async function failed(queued: Queued, error: unknown, saved: boolean): Promise<boolean> {
    const { record } = queued;
    const failure = options.classify(error);
    record.attempts += 1;
    record.lastError = failure.why;
    if (failure.kind === 'retry') {
      const delayMs = Math.max(failure.afterMs ?? 0, backoffMs(record.attempts));
      queued.nextAt = now().getTime() + delayMs;
      logger.warn(
        {
          err: error,
          channel,
          chatId: record.chatId,
          attempts: record.attempts,
          retry_in_ms: delayMs,
        },
        `${channel} delivery failed; kept in the outbox`,
      );
      if (!saved) queueOf(record.chatId).push(queued);
      await save(record);
      return true;
    }
    logger.error(
      { err: error, channel, chatId: record.chatId, why: failure.why },
      `${channel} refused a delivery; given up`,
    );
    if (saved) await forget(record);
    if (failure.chatReachable && record.what.kind !== 'notice')
      await noticeFirst(record.chatId, refusedNotice(channel, record, failure.why));
    return false;
  }

  /** Whether a queued item is past keeping: too old, or a card whose approval is decided. */
  async function stale(record: OutboxRecord): Promise<boolean> {
    if (Date.parse(record.expiresAt) <= now().getTime()) return true;
    const { what } = record;
    return (
      what.kind === 'card' && what.approvalId !== null && !(await cards.waiting(what.approvalId))
    );
  }

  async function delivered(record: OutboxRecord, ref: MessageRef | null): Promise<void> {
    await forget(record);
    logger.info(
      { channel, chatId: record.chatId, attempts: record.attempts, kind: record.what.kind },
      `${channel} delivery sent from the outbox`,
    );
    const { what } = record;
    if (what.kind === 'card' && what.approvalId !== null && ref !== null)
      await cards.posted(what.approvalId, ref).catch((error: unknown) => {
        logger.warn({ err: error }, 'could not record where a late card was posted');
      });
  }

  /** Delivers the chat's queue in order until one fails again or its retry time is ahead. */
  async function drain(chatId: string): Promise<void> {
    const queue = queueOf(chatId);
    let givenUp: OutboxRecord[] = [];
    while (!stopped) {
      const head = queue[0];
      if (head !== undefined && (await stale(head.record))) {
        queue.shift();
        await forget(head.record);
        if (head.record.what.kind === 'notice')
          logger.error(
            { channel, chatId, text: head.record.what.text },
            'outbox notice never delivered; dropped',
          );
        else givenUp.push(head.record);
        continue;
      }
      if (givenUp.length > 0) {
        logger.error(
          { channel, chatId, count: givenUp.length },
          'outbox gave up undelivered messages',
        );
        await noticeFirst(chatId, givenUpNotice(channel, givenUp));
        givenUp = [];
        continue;
      }
      if (head === undefined || head.nextAt > now().getTime()) break;
      try {
        const ref = await attempt(head.record);
        queue.shift();
        await delivered(head.record, ref);
      } catch (error) {
        const kept = await failed(head, error, true);
        if (kept) break;
        queue.shift();
      }
    }
    if (queue.length === 0) queues.delete(chatId);
  }

  function tick(): void {
    const at = now().getTime();
    for (const [chatId, queue] of queues) {
      const head = queue[0];
      if (head === undefined || lanes.has(chatId)) continue;
      if (head.nextAt > at && Date.parse(head.record.expiresAt) > at) continue;
      void inLane(chatId, () => drain(chatId)).catch((error: unknown) => {
        logger.error({ err: error, channel, chatId }, 'outbox drain failed');
      });
    }
  }

  /** Sends now if nothing waits for the chat, else (or on failure) queues behind what waits. */
  function deliver(chatId: string, what: Delivery): Promise<MessageRef | null> {
    return inLane(chatId, async () => {
      const record = newRecord(chatId, what);
      if ((queues.get(chatId)?.length ?? 0) > 0) {
        queueOf(chatId).push({ record, nextAt: 0 });
        await save(record);
        return null;
      }
      try {
        return await attempt(record);
      } catch (error) {
        await failed({ record, nextAt: 0 }, error, false);
        return null;
      }
    });
  }

  return {
    async sendText(chatId, text) {
      for (const part of text === '' ? [text] : options.split(text))
        await deliver(chatId, { kind: 'text', text: part });
    },
    sendCard: (chatId, card, approvalId) => deliver(chatId, { kind: 'card', card, approvalId }),
    async updateCard(ref, text) {
      const chatId = String(ref.chatId ?? ref.channel ?? '');
      await deliver(chatId, { kind: 'edit', ref, text });
    },
    typing: (chatId) => inner.typing?.(chatId) ?? Promise.resolve(),
    async start() {
      const { records, corrupt } = await store.load();
      if (corrupt.length > 0)
        logger.error(
          { channel, files: corrupt },
          'unreadable outbox entries set aside as .corrupt',
        );
      for (const record of records) queueOf(record.chatId).push({ record, nextAt: 0 });
      if (records.length > 0)
        logger.info(
          { channel, count: records.length },
          'outbox holds undelivered messages from before; retrying',
        );
      timer = setInterval(tick, TICK_MS);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer !== null) clearInterval(timer);
      await Promise.allSettled([...lanes.values()]);
    },
    waiting() {
      let count = 0;
      for (const queue of queues.values()) count += queue.length;
      return count;
    },
  };
}
