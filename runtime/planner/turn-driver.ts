// Driving one turn for a chat: run (or resume) it under a cancel signal, then answer,
// park it on an approval card, or report the stop. The chat service decides when; this
// module decides what happens to the turn's output, history and log.
import type { AuditLog } from '../log/audit-log.ts';
import { approvalAuditRecord } from '../approvals/audit-resolution.ts';
import { newApprovalId } from '../approvals/store.ts';
import type { ApprovalStore, ChannelName, PendingApproval, RuleStore } from '../approvals/types.ts';
import type { Config } from '../config.ts';
import type { LlmClient } from '../llm/client.ts';
import type { Logger } from '../log/logger.ts';
import type { Pipeline } from '../pipeline/pipeline.ts';
import { describeWriteFailure } from '../state-store.ts';
import {
  createTurnOutput,
  stepSubject,
  type ChannelSink,
  type TurnOutput,
} from './channel-output.ts';
import type { EventSink } from './events.ts';
import type { HistoryStore } from './history.ts';
import { closeOpenCalls } from './turn-bookkeeping.ts';
import type { PlannerDeps, TurnResult, TurnState } from './turn-state.ts';

export interface ChatServiceDeps {
  readonly config: Config;
  readonly client: LlmClient;
  readonly pipeline: Pipeline;
  readonly approvals: ApprovalStore;
  readonly rules: RuleStore;
  readonly history: HistoryStore;
  /** Where every card resolution (press, expiry, /stop) is audited, before the call it allows runs. */
  readonly audit: AuditLog;
  readonly buildCard: PlannerDeps['buildCard'];
  /** Where planner events go besides the chat (the turn log). */
  readonly events: EventSink;
  readonly logger: Logger;
  readonly now?: () => Date;
  /** Where the person works (the terminal chat's start dir); absent: their home. */
  readonly workdir?: string;
}

/** The chat service's live state the driver updates. */
export interface ChatRuntime {
  readonly deps: ChatServiceDeps;
  /** Chats with a turn running: chat key -> its cancel switch. */
  readonly running: Map<string, AbortController>;
  now(): Date;
}

/** What the person reads when a turn fails on our side (details go to the operator log). */
export const failedTurnText =
  'Something went wrong on my side and the request stopped; the daemon log has the details.';

export type TurnEnd = 'answered' | 'stopped' | 'failed' | 'cancelled';

/** Chats are keyed by channel and chat id (ids are only unique within a channel). */
export function chatKey(channel: string, chatId: string): string {
  return `${channel}:${chatId}`;
}

/** The event fields naming a turn. */
export function turnRef(state: TurnState): { turn_id: string; channel: string; chat_id: string } {
  return { turn_id: state.turnId, channel: state.channel, chat_id: state.chatId };
}

/** The planner's dependencies with this emit. */
export function plannerDeps(deps: ChatServiceDeps, emit: EventSink): PlannerDeps {
  return {
    config: deps.config,
    client: deps.client,
    pipeline: deps.pipeline,
    buildCard: deps.buildCard,
    emit,
    logger: deps.logger,
  };
}

/** Events to the turn log and to this chat's output; each call that ran is noted in `ran`. */
function turnEmitter(rt: ChatRuntime, output: TurnOutput, ran: string[]): EventSink {
  return (event) => {
    if (event.type === 'step' && event.decision === 'allow') ran.push(stepSubject(event));
    void rt.deps.events(event);
    void output.sink(event);
  };
}

/** A failed turn's text with what had already run, so the person never guesses whether it did. */
export function withWhatRan(text: string, ran: readonly string[]): string {
  return ran.length === 0 ? text : `${text} Before it stopped, this ran: ${ran.join('; ')}.`;
}

/** Runs (or resumes) a turn under a cancel signal, then answers, parks or reports the stop. */
export async function driveTurn(
  rt: ChatRuntime,
  state: TurnState,
  sink: ChannelSink,
  run: (deps: PlannerDeps, signal: AbortSignal) => Promise<TurnResult>,
): Promise<void> {
  const key = chatKey(state.channel, state.chatId);
  const output = createTurnOutput(sink, state.chatId, rt.deps.logger);
  const ran: string[] = [];
  const deps = plannerDeps(rt.deps, turnEmitter(rt, output, ran));
  const controller = new AbortController();
  rt.running.set(key, controller);
  let result: TurnResult;
  try {
    result = await run(deps, controller.signal);
  } catch (error) {
    const cancelled = controller.signal.aborted;
    if (!cancelled) rt.deps.logger.error({ err: error, chat: key }, 'turn failed');
    // A stop was the person's own; a failure is ours, and must say what had already run.
    const text = cancelled
      ? 'Stopped: nothing more will run for that request.'
      : withWhatRan(failedTurnText, ran);
    await endTurn(rt, state, sink, text, cancelled ? 'cancelled' : 'failed', output);
    return;
  } finally {
    rt.running.delete(key);
  }
  if (result.kind === 'final_output') {
    const text = result.outcome === 'failed' ? withWhatRan(result.text, ran) : result.text;
    await endTurn(rt, state, sink, text, result.outcome, output);
    return;
  }
  await park(rt, result, { deps, output, sink, ran });
}

/** Closes the turn: history saved, turn_ended logged, the final text sent after the step lines. */
export async function endTurn(
  rt: ChatRuntime,
  state: TurnState,
  sink: ChannelSink,
  text: string,
  outcome: TurnEnd,
  output: TurnOutput = createTurnOutput(sink, state.chatId, rt.deps.logger),
): Promise<void> {
  closeOpenCalls(
    state,
    outcome === 'cancelled' ? 'the person stopped the turn' : 'the turn ended first',
  );
  state.messages.push({ role: 'assistant', content: text });
  const unsaved = await saveTurn(rt, state);
  void rt.deps.events({
    ...turnRef(state),
    type: 'turn_ended',
    outcome,
    steps: state.step,
    ...(outcome === 'answered' ? {} : { reason: text }),
  });
  // The answer goes out even when the history could not keep it: what ran has run.
  const said = unsaved === null ? text : `${text}\n\n(${unsaved})`;
  await output.send(() => sink.sendText(state.chatId, said));
}

/** Saves the turn in the chat's history; null when saved, else what the person should know. */
async function saveTurn(rt: ChatRuntime, state: TurnState): Promise<string | null> {
  const key = chatKey(state.channel, state.chatId);
  try {
    if (state.turnFrom === undefined) await rt.deps.history.save(key, state.messages);
    else await rt.deps.history.append(key, state.messages.slice(state.turnFrom));
    return null;
  } catch (error) {
    rt.deps.logger.error({ err: error, chat: key }, 'chat history could not be saved');
    return `This turn could not be saved in the chat history: ${describeWriteFailure(error, 'the history dir')}. I will not remember it next time.`;
  }
}

/** What the person reads when a card cannot be kept: nothing was asked, so nothing ran. */
export function unkeptCardText(headline: string, error: unknown): string {
  return `Not asked, so not run: ${headline}. I could not keep its approval card (${describeWriteFailure(error, 'the approvals dir')}), and a card I cannot keep could not be answered. Ask again once Custode can write its state dir; the daemon log has the details.`;
}

/**
 * Parks an interrupted turn: the pending approval is stored, then the card is sent. A card
 * the store refuses (state dir read-only or full) ends the turn instead, saying so.
 */
async function park(
  rt: ChatRuntime,
  result: Extract<TurnResult, { kind: 'interruption' }>,
  turn: { deps: PlannerDeps; output: TurnOutput; sink: ChannelSink; ran: readonly string[] },
): Promise<void> {
  const { deps, output, sink } = turn;
  const { state, pending } = result;
  const created = rt.now();
  const expires = new Date(created.getTime() + rt.deps.config.approvals.expiry_minutes * 60_000);
  const approval: PendingApproval = {
    v: 1,
    id: newApprovalId(),
    channel: state.channel as ChannelName,
    chatId: state.chatId,
    sender: state.sender,
    call: pending.call,
    card: pending.card,
    turnState: state,
    createdAt: created.toISOString(),
    expiresAt: expires.toISOString(),
  };
  try {
    await rt.deps.approvals.put(approval);
  } catch (error) {
    rt.deps.logger.error(
      { err: error, chat: chatKey(state.channel, state.chatId) },
      'approval card could not be stored; the turn ends without it',
    );
    // The "ask" line is in the audit log; this one closes it: never asked, so denied.
    rt.deps.audit.append(approvalAuditRecord(approval, 'unkept-card', 'deny'));
    const text = withWhatRan(unkeptCardText(pending.card.headline, error), turn.ran);
    await endTurn(rt, state, sink, text, 'failed', output);
    return;
  }
  deps.emit({
    ...turnRef(state),
    type: 'turn_ended',
    outcome: 'waiting',
    steps: state.step,
    reason: pending.outcome.reason,
  });
  await output.send(async () => {
    const ref = await sink.sendCard(state.chatId, pending.card, approval.id);
    if (ref) await rt.deps.approvals.setMessageRef(approval.id, ref);
  });
}
