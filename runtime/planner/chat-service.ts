// The channel-facing entry of the planner, used by the terminal, Telegram and Slack.
// Turns are serialised per chat (a message that arrives mid-turn waits its turn, never
// dropped) and concurrent across chats; "ask" parks the turn in the approval store and a
// card press resumes it, in this process or after a restart. While a card waits, new
// messages in that chat are answered with a reminder (not queued): the card comes first.
import { auditResolution } from '../approvals/audit-resolution.ts';
import { renderResolvedText, type Resolution } from '../approvals/render.ts';
import type { ApprovalAnswer, ChannelName, PendingApproval } from '../approvals/types.ts';
import { answerCommand } from './chat-commands.ts';
import type { ChannelSink } from './channel-output.ts';
import { newTurnState, resumeTurn, runTurn } from './loop.ts';
import { systemPrompt } from './prompts.ts';
import {
  chatKey,
  driveTurn,
  endTurn,
  failedTurnText,
  turnRef,
  type ChatRuntime,
  type ChatServiceDeps,
} from './turn-driver.ts';
import { turnStateSchema, type TurnState } from './turn-state.ts';

export type { ChannelSink } from './channel-output.ts';
export type { ChatServiceDeps } from './turn-driver.ts';

export interface IncomingChatMessage {
  readonly channel: ChannelName;
  readonly chatId: string;
  /** Channel-qualified sender id, e.g. "telegram:42" (rules and approvals are per sender). */
  readonly sender: string;
  readonly text: string;
}

export interface ApprovalPress {
  readonly approvalId: string;
  /** Channel-qualified id of the person who pressed, e.g. "slack:U123". */
  readonly presser: string;
  readonly answer: ApprovalAnswer;
}

export type ResolveOutcome = 'resolved' | 'not_yours' | 'expired' | 'unknown' | 'already_resolved';

type Resumption = { kind: 'allow'; approvedBy: string } | { kind: 'deny'; why: string };

const expiredWhy = 'the approval card expired without an answer';

/** Serialises turns per chat, runs them through the planner, parks and resumes approvals. */
export class ChatService {
  private readonly lanes = new Map<string, Promise<void>>();
  private readonly sinks = new Map<ChannelName, ChannelSink>();
  private readonly rt: ChatRuntime;
  private stopped = false;
  /** Cards parked before a restart still hold their chats; loaded once, on first use. */
  private restored: Promise<void> | null = null;

  constructor(private readonly deps: ChatServiceDeps) {
    this.rt = {
      deps,
      running: new Map(),
      waiting: new Map(),
      now: () => deps.now?.() ?? new Date(),
    };
  }

  /** Tells the service how to reach a channel's chats (expiry notices after a restart). */
  attach(channel: ChannelName, sink: ChannelSink): void {
    this.sinks.set(channel, sink);
  }

  /** Handles one message; resolves once it is answered or its turn waits on a card. */
  async handleMessage(message: IncomingChatMessage, sink: ChannelSink): Promise<void> {
    this.attach(message.channel, sink);
    const key = chatKey(message.channel, message.chatId);
    await this.restoreWaiting();
    const text = message.text.trim();
    if (this.stopped)
      return sink.sendText(message.chatId, 'Custode is shutting down; try again in a moment.');
    // /stop must not queue behind the turn it cancels.
    if (text === '/stop') return this.stopChat(key, message, sink);
    await this.inLane(
      key,
      () => sink.sendText(message.chatId, failedTurnText),
      async () => {
        if (text === '/reset') {
          await this.cancelWaiting(key, message.sender, sink);
          await this.deps.history.clear(key);
          return sink.sendText(message.chatId, 'History cleared: this chat starts fresh.');
        }
        const offline = this.deps.client.provider === 'offline';
        const answer = await answerCommand(text, message.sender, this.deps.rules, offline);
        if (answer !== null) return sink.sendText(message.chatId, answer);
        if (this.rt.waiting.has(key)) {
          return sink.sendText(
            message.chatId,
            'A card above is waiting for your answer; answer it first (or send /stop to cancel it).',
          );
        }
        if (text === '') return sink.sendText(message.chatId, 'Send a request, or /help.');
        const system = {
          role: 'system' as const,
          content: systemPrompt(this.deps.config.planner.mode, this.deps.workdir),
        };
        const messages = [system, ...(await this.deps.history.load(key))];
        const { channel, chatId, sender } = message;
        const state = newTurnState(this.deps.config.planner.mode, {
          channel,
          chatId,
          sender,
          text,
          messages,
        });
        await driveTurn(this.rt, state, sink, (deps, signal) => {
          deps.emit({
            ...turnRef(state),
            type: 'turn_started',
            sender,
            intent: text,
            mode: state.mode,
          });
          return runTurn(deps, state, signal);
        });
      },
    );
  }

  /** Applies a card press: single-use, owner or approvers only; resumes the parked turn. */
  async resolveApproval(press: ApprovalPress, sink: ChannelSink): Promise<ResolveOutcome> {
    const taken = await this.deps.approvals.take(
      press.approvalId,
      press.presser,
      this.approvers(),
      this.rt.now(),
    );
    switch (taken.kind) {
      case 'unknown':
      case 'already_resolved':
      case 'not_yours':
        return taken.kind;
      case 'expired':
        await this.resumeParked(taken.pending, sink, { kind: 'deny', why: expiredWhy }, 'expired');
        return 'expired';
      case 'taken': {
        const { pending } = taken;
        this.attach(pending.channel, sink);
        const answer: Resumption =
          press.answer === 'deny'
            ? { kind: 'deny', why: 'the person declined' }
            : { kind: 'allow', approvedBy: press.presser };
        // "Always" with no safe narrow rule is only "once": the card must not claim a rule.
        const saved = press.answer === 'always' && (await this.saveRule(pending, sink));
        const resolution = press.answer === 'always' && !saved ? 'once' : press.answer;
        await this.resumeParked(pending, sink, answer, resolution, press.presser);
        return 'resolved';
      }
    }
  }

  /** Resolves every expired card as denied (the turn goes on with that observation); returns how many. */
  async expireDue(now: Date = this.rt.now()): Promise<number> {
    let count = 0;
    for (const pending of await this.deps.approvals.expired(now)) {
      const sink = this.sinks.get(pending.channel);
      if (!sink) continue;
      const taken = await this.deps.approvals.take(pending.id, pending.sender, [], now);
      if (taken.kind !== 'expired') continue;
      auditResolution(this.deps.audit, taken.pending, 'expiry', 'expired');
      await this.resumeParked(taken.pending, sink, { kind: 'deny', why: expiredWhy }, 'expired');
      count += 1;
    }
    return count;
  }

  /** Cancels running turns and waits for every chat's lane to settle. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const controller of this.rt.running.values())
      controller.abort(new DOMException('Custode is stopping.', 'AbortError'));
    await Promise.allSettled([...this.lanes.values()]);
  }

  private restoreWaiting(): Promise<void> {
    this.restored ??= this.deps.approvals.list().then(
      (pending) => {
        for (const card of pending) {
          const key = chatKey(card.channel, card.chatId);
          const live = new Date(card.expiresAt) > this.rt.now();
          if (live && !this.rt.waiting.has(key)) this.rt.waiting.set(key, card.id);
        }
      },
      (error: unknown) => this.deps.logger.warn({ err: error }, 'could not list pending approvals'),
    );
    return this.restored;
  }

  private approvers(): string[] {
    const { telegram, slack } = this.deps.config.channels;
    return [
      ...telegram.approvers.map((id) => `telegram:${String(id)}`),
      ...slack.approvers.map((id) => `slack:${id}`),
    ];
  }

  /** Runs `work` after the chat's earlier work; a failure is logged and told to the chat, never thrown. */
  private inLane(
    key: string,
    reply: () => Promise<void>,
    work: () => Promise<void>,
  ): Promise<void> {
    const run = (this.lanes.get(key) ?? Promise.resolve())
      .then(work)
      .catch(async (error: unknown) => {
        this.deps.logger.error({ err: error, chat: key }, 'chat turn failed');
        await reply().catch(() => undefined);
      });
    this.lanes.set(key, run);
    void run.then(() => {
      if (this.lanes.get(key) === run) this.lanes.delete(key);
    });
    return run;
  }

  /** Saves the narrowest safe rule for the call and tells the person; false when none is safe. */
  private async saveRule(pending: PendingApproval, sink: ChannelSink): Promise<boolean> {
    const rule = this.deps.rules.propose(pending.call);
    if (rule === null) {
      await sink.sendText(
        pending.chatId,
        'No narrow always-allow rule is safe for this action, so it is allowed this once only.',
      );
      return false;
    }
    await this.deps.rules.add(rule);
    await sink.sendText(
      pending.chatId,
      `Saved an always-allow rule: ${rule.description}. /rules lists your rules.`,
    );
    return true;
  }

  private async updateCard(
    pending: PendingApproval,
    sink: ChannelSink,
    resolution: Resolution,
    by?: string,
  ): Promise<void> {
    if (!pending.messageRef) return;
    await sink
      .updateCard(pending.messageRef, renderResolvedText(pending.card, resolution, by))
      .catch((error: unknown) => {
        this.deps.logger.warn({ err: error, approval: pending.id }, 'card update failed');
      });
  }

  /** The parked turn's state, validated (fail closed: a damaged state never resumes). */
  private async parkedState(
    pending: PendingApproval,
    sink: ChannelSink,
  ): Promise<TurnState | null> {
    const parsed = turnStateSchema.safeParse(pending.turnState);
    if (parsed.success) return parsed.data as TurnState;
    this.deps.logger.error(
      { approval: pending.id, issues: parsed.error.issues },
      'pending approval holds an invalid turn state',
    );
    await sink.sendText(
      pending.chatId,
      'I could not resume that request (its saved state is damaged); nothing was run. Please ask again.',
    );
    return null;
  }

  /** Resumes a parked turn on its chat's lane. */
  private async resumeParked(
    pending: PendingApproval,
    sink: ChannelSink,
    answer: Resumption,
    resolution: Resolution,
    by?: string,
  ): Promise<void> {
    const key = chatKey(pending.channel, pending.chatId);
    await this.inLane(
      key,
      () => sink.sendText(pending.chatId, failedTurnText),
      async () => {
        if (this.rt.waiting.get(key) === pending.id) this.rt.waiting.delete(key);
        await this.updateCard(pending, sink, resolution, by);
        const state = await this.parkedState(pending, sink);
        if (state)
          await driveTurn(this.rt, state, sink, (deps, signal) =>
            resumeTurn(deps, state, answer, signal),
          );
      },
    );
  }

  private async stopChat(
    key: string,
    message: IncomingChatMessage,
    sink: ChannelSink,
  ): Promise<void> {
    const controller = this.rt.running.get(key);
    if (controller) {
      controller.abort(new DOMException('Stopped by the person.', 'AbortError'));
      return;
    }
    if (await this.cancelWaiting(key, message.sender, sink)) return;
    await sink.sendText(message.chatId, 'Nothing is running.');
  }

  /** Resolves this chat's waiting card as declined (by /stop or /reset); false when there is none. */
  private async cancelWaiting(key: string, sender: string, sink: ChannelSink): Promise<boolean> {
    const id = this.rt.waiting.get(key);
    if (id === undefined) return false;
    const taken = await this.deps.approvals.take(id, sender, this.approvers(), this.rt.now());
    // Someone else's card (a group chat) stays open; one already answered no longer holds the chat.
    if (taken.kind === 'not_yours') return false;
    if (this.rt.waiting.get(key) === id) this.rt.waiting.delete(key);
    if (taken.kind !== 'taken' && taken.kind !== 'expired') return false;
    await this.updateCard(taken.pending, sink, 'deny', sender);
    const state = await this.parkedState(taken.pending, sink);
    if (state)
      await endTurn(this.rt, state, sink, 'Stopped: the pending action was not run.', 'cancelled');
    return true;
  }
}
