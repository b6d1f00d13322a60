// What a chat sees of a running turn: a typing indicator before each model call, one line
// per tool step, refusal cards. Sends go through one ordered outbox per turn, so the final
// answer never overtakes a step line; a failing channel is logged, never fatal.
import type { ApprovalCard } from '../approvals/card.ts';
import type { MessageRef } from '../approvals/types.ts';
import type { Logger } from '../log/logger.ts';
import type { EventSink, PlannerEvent } from './events.ts';

/** What a channel gives the chat service to talk back to one chat. */
export interface ChannelSink {
  sendText(chatId: string, text: string): Promise<void>;
  /** Posts a card; approvalId is null for a refusal (no buttons). Returns where it was posted. */
  sendCard(
    chatId: string,
    card: ApprovalCard,
    approvalId: string | null,
  ): Promise<MessageRef | null>;
  updateCard(ref: MessageRef, text: string): Promise<void>;
  typing?(chatId: string): Promise<void>;
  step?(chatId: string, line: string): Promise<void>;
}

const targetKeys = ['command', 'path', 'url', 'pattern'] as const;

/** "fs_write ~/x.txt": the executor and a short target. */
export function stepSubject(event: { readonly executor: string; readonly args: unknown }): string {
  let target = '';
  if (event.args !== null && typeof event.args === 'object') {
    const args = event.args as Record<string, unknown>;
    const key = targetKeys.find(
      (name) => Object.hasOwn(args, name) && typeof args[name] === 'string',
    );
    if (key) target = args[key] as string;
  } else if (typeof event.args === 'string') {
    target = event.args;
  }
  if (target.length > 60) target = `${target.slice(0, 57)}...`;
  return `${event.executor}${target ? ` ${target}` : ''}`;
}

/** "fs_write ~/x.txt -> ask": the executor, a short target, the decision. */
export function stepLine(event: Extract<PlannerEvent, { type: 'step' }>): string {
  const why =
    event.decision === 'deny' || event.decision === 'error' || event.decision === 'declined'
      ? ` (${event.reason})`
      : '';
  return `${stepSubject(event)} -> ${event.decision}${why}`;
}

export interface TurnOutput {
  readonly sink: EventSink;
  /** Queue a send after everything already queued; resolves when it is done. */
  send(action: () => Promise<unknown>): Promise<void>;
}

/** The per-turn output of one chat through its channel. */
export function createTurnOutput(channel: ChannelSink, chatId: string, logger: Logger): TurnOutput {
  let outbox: Promise<void> = Promise.resolve();
  const send = (action: () => Promise<unknown>): Promise<void> => {
    outbox = outbox.then(action).then(
      () => undefined,
      (error: unknown) => logger.warn({ err: error, chatId }, 'channel send failed'),
    );
    return outbox;
  };
  return {
    send,
    sink(event) {
      switch (event.type) {
        case 'model_call':
          if (channel.typing) void send(() => channel.typing?.(chatId) ?? Promise.resolve());
          return;
        case 'step':
          if (channel.step && event.decision !== 'ask')
            void send(() => channel.step?.(chatId, stepLine(event)) ?? Promise.resolve());
          return;
        case 'refused':
          void send(() => channel.sendCard(chatId, event.card, null));
          return;
        default:
          return;
      }
    },
  };
}
