// The word a chat gets after a restart about its turn that a crash cut short: what it asked,
// which steps had finished, and that nothing more will run for it.
import { shorten } from '../approvals/excerpt.ts';
import type { UnfinishedTurn } from '../log/unfinished-turns.ts';

/** What the chat is told about one unfinished turn. */
export function interruptedText(turn: UnfinishedTurn): string {
  const when = turn.lastSeen.slice(0, 16).replace('T', ' ');
  const ran =
    turn.ran.length === 0
      ? 'No step of it had finished.'
      : `These steps had finished: ${turn.ran.join('; ')}. A step after them may have been cut off part way.`;
  return `Custode stopped unexpectedly (around ${when} UTC) while working on "${shorten(turn.intent, 80)}", so that request did not finish. ${ran} Nothing more will run for it; ask again if you still want it.`;
}
