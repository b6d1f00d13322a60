// What a chat is told after a fault it could not see: its turn was cut short by a crash
// (what had finished, nothing more will run), or its waiting card's file is damaged.
import { shorten } from '../approvals/excerpt.ts';
import type { ChannelName } from '../approvals/types.ts';
import type { UnfinishedTurn } from '../log/unfinished-turns.ts';
import type { ChannelSink } from './channel-output.ts';
import type { ChatServiceDeps } from './turn-driver.ts';

type Sinks = ReadonlyMap<ChannelName, ChannelSink>;

const damagedCardText =
  'A card waiting in this chat could not be read back (its saved file is damaged), so it was cancelled and nothing from it will run. Ask again if you still want it.';

/** What the chat is told about one unfinished turn. */
export function interruptedText(turn: UnfinishedTurn): string {
  const when = turn.lastSeen.slice(0, 16).replace('T', ' ');
  const ran =
    turn.ran.length === 0
      ? 'No step of it had finished.'
      : `These steps had finished: ${turn.ran.join('; ')}.`;
  const cut =
    turn.approvedUnfinished === undefined
      ? turn.ran.length === 0
        ? ''
        : ' A step after them may have been cut off part way.'
      : ` The step you had allowed, ${turn.approvedUnfinished}, had not finished: it may have run in part or not at all, so check it before asking again.`;
  return `Custode stopped unexpectedly (around ${when} UTC) while working on "${shorten(turn.intent, 80)}", so that request did not finish. ${ran}${cut} Nothing more will run for it; ask again if you still want it.`;
}

/**
 * Tells each remote chat whose turn a crash cut short, and closes the turn in the log so it
 * is told once. Returns how many were told.
 */
export async function tellInterrupted(
  deps: ChatServiceDeps,
  sinks: Sinks,
  turns: readonly UnfinishedTurn[],
): Promise<number> {
  let told = 0;
  for (const turn of turns) {
    // The terminal chat may run beside the daemon: its turns are its own to finish.
    const sink = turn.channel === 'local' ? undefined : sinks.get(turn.channel as ChannelName);
    if (sink === undefined) continue;
    await sink.sendText(turn.chatId, interruptedText(turn));
    void deps.events({
      turn_id: turn.turnId,
      channel: turn.channel,
      chat_id: turn.chatId,
      type: 'turn_ended',
      outcome: 'failed',
      steps: 0,
      reason: 'cut short by a crash; told after the restart',
    });
    told += 1;
  }
  return told;
}

/** Sets aside cards whose saved file is damaged and tells their chats (they never resume). */
export async function tellDamaged(deps: ChatServiceDeps, sinks: Sinks): Promise<void> {
  for (const { file, chat } of await deps.approvals.setAsideDamaged()) {
    const sink = chat === null ? undefined : sinks.get(chat.channel);
    deps.logger.error(
      { file, chat, told: sink !== undefined },
      'damaged pending approval set aside as .damaged',
    );
    if (chat !== null && sink !== undefined) await sink.sendText(chat.chatId, damagedCardText);
  }
}
