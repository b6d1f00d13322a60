// What a chat is told when the outbox gives something up: which deliveries, from when, and
// that nothing more will come of them. Plain text: it goes out as a message like any other.
import { shorten } from '../approvals/excerpt.ts';
import type { Delivery, OutboxRecord } from './outbox-record.ts';

const channelNames = { telegram: 'Telegram', slack: 'Slack' } as const;
export type RemoteChannel = keyof typeof channelNames;

/** One delivery in a few words: a text's opening, a card's headline. */
export function describeDelivery(what: Delivery): string {
  switch (what.kind) {
    case 'text':
    case 'notice':
      return `"${shorten(what.text, 80)}"`;
    case 'card':
      return `the card "${shorten(what.card.headline, 80)}"`;
    case 'edit':
      return 'an update to a card';
  }
}

function listed(records: readonly OutboxRecord[]): string {
  const shown = records.slice(0, 3).map((record) => describeDelivery(record.what));
  const more = records.length - shown.length;
  return more > 0 ? `${shown.join('; ')}; and ${String(more)} more` : shown.join('; ');
}

/** The notice for deliveries that waited longer than they are kept (channel down all along). */
export function givenUpNotice(channel: RemoteChannel, records: readonly OutboxRecord[]): string {
  const since = (records[0]?.createdAt ?? '').slice(0, 16).replace('T', ' ');
  const what = records.length === 1 ? 'a message' : `${String(records.length)} messages`;
  return `${channelNames[channel]} could not be reached from ${since} UTC for longer than I keep an undelivered message, so I gave up on ${what} for this chat: ${listed(records)}. Ask again if you still need ${records.length === 1 ? 'it' : 'them'}.`;
}

/** The notice for a delivery the channel refused outright (too long, malformed). */
export function refusedNotice(channel: RemoteChannel, record: OutboxRecord, why: string): string {
  return `${channelNames[channel]} refused a message for this chat (${why}), so it was not delivered: ${describeDelivery(record.what)}.`;
}
