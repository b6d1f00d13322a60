// The outbox as a remote channel builds it: saved under the state dir per channel, kept as
// long as the config says, cards tied to the chat service's approvals.
import { join } from 'node:path';
import type { ChatPort } from '../approvals/press-card.ts';
import type { Config } from '../config.ts';
import { createOutbox, type Outbox, type OutboxOptions } from './outbox.ts';
import { createOutboxStore } from './outbox-store.ts';

export interface ChannelOutboxOptions extends Pick<
  OutboxOptions,
  'channel' | 'inner' | 'classify' | 'split' | 'logger' | 'health'
> {
  readonly service: ChatPort;
  readonly config: Config;
  /** The daemon's state dir; the outbox lives in `outbox/<channel>` under it. */
  readonly stateDir: string;
}

/** A channel's outbox, started: what an earlier run left undelivered is retried at once. */
export async function startChannelOutbox(options: ChannelOutboxOptions): Promise<Outbox> {
  const { channel, service } = options;
  const outbox = createOutbox({
    channel,
    inner: options.inner,
    classify: options.classify,
    split: options.split,
    logger: options.logger,
    ...(options.health === undefined ? {} : { health: options.health }),
    store: createOutboxStore(join(options.stateDir, 'outbox', channel)),
    maxAgeMs: options.config.channels.outbox.max_age_minutes * 60_000,
    cards: {
      posted: (approvalId, ref) => service.cardPosted(approvalId, ref),
      waiting: (approvalId) => service.cardWaiting(approvalId),
    },
  });
  await outbox.start();
  return outbox;
}
