// The channel-facing entry of the planner, used by the terminal, Telegram and Slack.
// Turns are serialised per chat (a message that arrives mid-turn waits its turn, never
// dropped) and concurrent across chats; "ask" parks the turn in the approval store and a
// card press resumes it, in this process or after a restart. While a card waits, new
// messages in that chat are answered with a reminder (not queued): the card comes first.
import { approvalAuditRecord } from '../approvals/audit-resolution.ts';
import { renderResolvedText, type PressResult, type Resolution } from '../approvals/render.ts';
import type {
  AllowRule,
  ApprovalAnswer,
  ChannelName,
  MessageRef,
  PendingApproval,
  TakeResult,
} from '../approvals/types.ts';
import type { UnfinishedTurn } from '../log/unfinished-turns.ts';
import { answerCommand } from './chat-commands.ts';
import { tellDamaged, tellInterrupted } from './fault-notices.ts';
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
  /**
   * Where the pressed card is, as the channel saw it: used when the store has no ref yet (a
   * card posted late by the outbox can be pressed before its ref is saved).
   */
  readonly cardRef?: MessageRef;
}

/** The pending approval with the press's card ref when the store had none. */
function located(pending: PendingApproval, press: ApprovalPress): PendingApproval {
  return pending.messageRef === undefined && press.cardRef !== undefined
    ? { ...pending, messageRef: press.cardRef }
    : pending;
}

export type ResolveOutcome = PressResult;

type Resumption = { kind: 'allow'; approvedBy: string } | { kind: 'deny'; why: string };

const expiredWhy = 'the approval card expired without an answer';

/** Serialises turns per chat, runs them through the planner, parks and resumes approvals. */
export class ChatService {
  private readonly lanes = new Map<string, Promise<void>>();
  private readonly sinks = new Map<ChannelName, ChannelSink>();
  private readonly rt: ChatRuntime;
  private stopped = false;

  constructor(private readonly deps: ChatServiceDeps) {
    this.rt = {
      deps,
      running: new Map(),
      now: () => deps.now?.() ?? new Date(),
    };
  }

  /** Tells the service how to reach a channel's chats (expiry notices after a restart). */
  attach(channel: ChannelName, sink: ChannelSink): void {
    this.sinks.set(channel, sink);
  }

  /** Records where a card was posted late (a channel's outbox), so its decision can edit it. */
  cardPosted(approvalId: string, ref: MessageRef): Promise<void> {
    return this.deps.approvals.setMessageRef(approvalId, ref);
  }

  /** Whether a card's approval still waits for an answer (a decided card is not posted late). */
  async cardWaiting(approvalId: string): Promise<boolean> {
    return (await this.deps.approvals.list()).some((pending) => pending.id === approvalId);
  }

  /** Handles one message; resolves once it is answered or its turn waits on a card. */
  async handleMessage(message: IncomingChatMessage, sink: ChannelSink): Promise<void> {
    this.attach(message.channel, sink);
    const key = chatKey(message.channel, message.chatId);
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
        if ((await this.waitingCard(key)) !== null) {
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

  /** Applies a card press and waits for the resumed turn to finish (or park again). */
  async resolveApproval(press: ApprovalPress, sink: ChannelSink): Promise<ResolveOutcome> {
    const { outcome, resumed } = await this.decideApproval(press, sink);
    await resumed;
    return outcome;
  }

  /**
   * Applies a card press: single-use, owner or approvers only; its audit line is written
   * before the parked turn resumes. Returns as soon as the press is decided (a channel can
   * answer the presser at once); `resumed` settles when the resumed turn has.
   */
  async decideApproval(
    press: ApprovalPress,
    sink: ChannelSink,
  ): Promise<{ outcome: ResolveOutcome; resumed: Promise<void> }> {
    let taken: TakeResult;
    try {
      taken = await this.deps.approvals.take(
        press.approvalId,
        press.presser,
        this.approvers(),
        this.rt.now(),
      );
    } catch (error) {
      // A state dir gone read-only or full mid-run: the card stays, and the presser is told.
      this.deps.logger.error({ err: error, approval: press.approvalId }, 'card press not recorded');
      return { outcome: 'unrecorded', resumed: Promise.resolve() };
    }
    switch (taken.kind) {
      case 'unknown':
      case 'already_resolved':
      case 'not_yours':
        return { outcome: taken.kind, resumed: Promise.resolve() };
      case 'expired':
        return {
          outcome: 'expired',
          resumed: this.resumeExpired(located(taken.pending, press), sink),
        };
      case 'taken': {
        const pending = located(taken.pending, press);
        this.attach(pending.channel, sink);
        // "Always" with no safe narrow rule is only "once": the card must not claim a rule.
        const rule = press.answer === 'always' ? this.deps.rules.propose(pending.call) : null;
        const resolution = press.answer === 'always' && rule === null ? 'once' : press.answer;
        const unaudited = this.auditResolution(pending, press.presser, resolution);
        if (press.answer === 'deny') {
          const why = { kind: 'deny', why: 'the person declined' } as const;
          const resumed = this.resumeParked(pending, sink, why, 'deny', press.presser);
          return { outcome: 'resolved', resumed };
        }
        if (unaudited !== null) {
          // The card must not say "allowed": it is closed as denied, and the chat is told why.
          await sink.sendText(pending.chatId, `Not run: ${unaudited}.`);
          const why = { kind: 'deny', why: unaudited } as const;
          return { outcome: 'resolved', resumed: this.resumeParked(pending, sink, why, 'deny') };
        }
        if (press.answer === 'always') await this.saveRule(pending, rule, sink);
        const allow = { kind: 'allow', approvedBy: press.presser } as const;
        const resumed = this.resumeParked(pending, sink, allow, resolution, press.presser);
        return { outcome: 'resolved', resumed };
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
      await this.resumeExpired(taken.pending, sink);
      count += 1;
    }
    await tellDamaged(this.deps, this.sinks);
    return count;
  }

  /** Tells each remote chat whose turn a crash cut short what had finished (the daemon, at start). */
  tellInterrupted(turns: readonly UnfinishedTurn[]): Promise<number> {
    return tellInterrupted(this.deps, this.sinks, turns);
  }

  /** Cancels running turns and waits for every chat's lane to settle. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const controller of this.rt.running.values())
      controller.abort(new DOMException('Custode is stopping.', 'AbortError'));
    await Promise.allSettled([...this.lanes.values()]);
  }

  /**
   * The live card this chat's turn waits on, or null. Read from the store every time, never
   * remembered: a card parked or answered by another process (a terminal chat beside the
   * daemon, a restart) counts the same as one of ours.
   */
  private async waitingCard(key: string): Promise<string | null> {
    const now = this.rt.now();
    const cards = await this.deps.approvals.list();
    const card = cards.find(
      (c) => chatKey(c.channel, c.chatId) === key && new Date(c.expiresAt) > now,
    );
    return card?.id ?? null;
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

  /**
   * The one place a card's resolution is audited (press, expiry, /stop), always before the
   * call it allows could run. Null when written (or the operator lets calls run unlogged),
   * else why the call must not run.
   */
  private auditResolution(
    pending: PendingApproval,
    decidedBy: string,
    resolution: Resolution,
  ): string | null {
    const written = this.deps.audit.append(approvalAuditRecord(pending, decidedBy, resolution));
    if (written.ok || this.deps.config.audit.on_failure === 'continue') return null;
    return `the approval could not be written to the audit log (${written.problem}), and nothing runs without its audit line`;
  }

  /** Resumes an expired card's turn as declined, after auditing the expiry. */
  private resumeExpired(pending: PendingApproval, sink: ChannelSink): Promise<void> {
    this.auditResolution(pending, 'expiry', 'expired');
    return this.resumeParked(pending, sink, { kind: 'deny', why: expiredWhy }, 'expired');
  }

  /** Saves the proposed always-allow rule and tells the person (or that none is safe). */
  private async saveRule(
    pending: PendingApproval,
    rule: AllowRule | null,
    sink: ChannelSink,
  ): Promise<void> {
    if (rule === null) {
      await sink.sendText(
        pending.chatId,
        'No narrow always-allow rule is safe for this action, so it is allowed this once only.',
      );
      return;
    }
    await this.deps.rules.add(rule);
    await sink.sendText(
      pending.chatId,
      `Saved an always-allow rule: ${rule.description}. /rules lists your rules.`,
    );
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
        await this.updateCard(pending, sink, resolution, by);
        const state = await this.parkedState(pending, sink);
        if (!state) return;
        void this.deps.events({
          ...turnRef(state),
          type: 'turn_resumed',
          answer: resolution,
          by: by ?? (resolution === 'expired' ? 'expiry' : 'custode'),
          executor: pending.call.executor,
          args: pending.call.args,
        });
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
    const id = await this.waitingCard(key);
    if (id === null) return false;
    const taken = await this.deps.approvals.take(id, sender, this.approvers(), this.rt.now());
    // Someone else's card (a group chat) stays open; one already answered no longer holds the chat.
    if (taken.kind !== 'taken' && taken.kind !== 'expired') return false;
    this.auditResolution(taken.pending, sender, 'deny');
    await this.updateCard(taken.pending, sink, 'deny', sender);
    const state = await this.parkedState(taken.pending, sink);
    if (state)
      await endTurn(this.rt, state, sink, 'Stopped: the pending action was not run.', 'cancelled');
    return true;
  }
}
