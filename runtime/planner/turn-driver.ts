// Driving one turn for a chat: run (or resume) it under a cancel signal, then answer,
// park it on an approval card, or report the stop. The chat service decides when; this
// module decides what happens to the turn's output, history and log.
import type { AuditLog } from '../log/audit-log.ts';
import { newApprovalId } from '../approvals/store.ts';
import type { ApprovalStore, ChannelName, PendingApproval, RuleStore } from '../approvals/types.ts';
import type { Config } from '../config.ts';
import type { LlmClient } from '../llm/client.ts';
import type { Logger } from '../log/logger.ts';
import type { Pipeline } from '../pipeline/pipeline.ts';
import { createTurnOutput, type ChannelSink, type TurnOutput } from './channel-output.ts';
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
  /** Where card expiries found by the sweep are recorded (presses are audited by the channels). */
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
  /** Chats whose turn waits on a card: chat key -> approval id. */
  readonly waiting: Map<string, string>;
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

/** Events to the turn log and to this chat's output. */
function turnEmitter(rt: ChatRuntime, output: TurnOutput): EventSink {
  return (event) => {
    void rt.deps.events(event);
    void output.sink(event);
  };
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
  const deps = plannerDeps(rt.deps, turnEmitter(rt, output));
  const controller = new AbortController();
  rt.running.set(key, controller);
  let result: TurnResult;
  try {
    result = await run(deps, controller.signal);
  } catch (error) {
    const cancelled = controller.signal.aborted;
    if (!cancelled) rt.deps.logger.error({ err: error, chat: key }, 'turn failed');
    const text = cancelled ? 'Stopped: nothing more will run for that request.' : failedTurnText;
    await endTurn(rt, state, sink, text, cancelled ? 'cancelled' : 'failed', output);
    return;
  } finally {
    rt.running.delete(key);
  }
  if (result.kind === 'final_output') {
    await endTurn(rt, state, sink, result.text, result.outcome, output);
    return;
  }
  await park(rt, result, deps, output, sink);
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
  await rt.deps.history.save(chatKey(state.channel, state.chatId), state.messages);
  void rt.deps.events({
    ...turnRef(state),
    type: 'turn_ended',
    outcome,
    steps: state.step,
    ...(outcome === 'answered' ? {} : { reason: text }),
  });
  await output.send(() => sink.sendText(state.chatId, text));
}

/** Parks an interrupted turn: the pending approval is stored, then the card is sent. */
async function park(
  rt: ChatRuntime,
  result: Extract<TurnResult, { kind: 'interruption' }>,
  deps: PlannerDeps,
  output: TurnOutput,
  sink: ChannelSink,
): Promise<void> {
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
  await rt.deps.approvals.put(approval);
  rt.waiting.set(chatKey(state.channel, state.chatId), approval.id);
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
