// The planner loop: one readable function over the step union (run_again | final_output |
// interruption). A denial is an observation and the loop goes on; "ask" pauses the turn
// with serialisable state that resumeTurn() continues.
import { randomUUID } from 'node:crypto';
import type { ChatMessage } from '../llm/client.ts';
import { declinedCall, processCall } from './call-step.ts';
import { nextSingleShotStep } from './single-shot.ts';
import { applyObservation, askModel, tooManyDenials } from './turn-bookkeeping.ts';
import type { NextStep, PlannerDeps, TurnResult, TurnState } from './turn-state.ts';

export interface TurnStart {
  readonly channel: string;
  readonly chatId: string;
  readonly sender: string;
  readonly text: string;
  /** Prior conversation, system prompt included. */
  readonly messages: readonly ChatMessage[];
}

/** A fresh turn state for a person's message. */
export function newTurnState(mode: TurnState['mode'], start: TurnStart): TurnState {
  return {
    v: 1,
    turnId: randomUUID(),
    mode,
    channel: start.channel,
    chatId: start.chatId,
    sender: start.sender,
    intent: start.text,
    messages: [...start.messages, { role: 'user', content: start.text }],
    turnFrom: start.messages.length,
    step: 0,
    denialsInARow: 0,
    policyViolations: [],
    queue: [],
    report: [],
  };
}

async function nextMultistepStep(
  deps: PlannerDeps,
  state: TurnState,
  signal: AbortSignal,
): Promise<NextStep> {
  const maxSteps = deps.config.planner.max_steps;
  const call = state.queue[0];
  if (call) {
    const result = await processCall(deps, state, call, signal);
    if (result.kind === 'ask') return { kind: 'interruption', pending: result.pending, state };
    applyObservation(state, call, result);
    return tooManyDenials(deps, state) ?? { kind: 'run_again' };
  }
  if (state.step >= maxSteps) {
    return {
      kind: 'final_output',
      outcome: 'stopped',
      text: `I stopped after ${String(maxSteps)} steps without finishing. Ask again with a narrower request.`,
    };
  }
  const answer = await askModel(deps, state, signal, true);
  if (!answer.ok) return { kind: 'final_output', outcome: 'failed', text: answer.text };
  const { text, toolCalls } = answer.response;
  if (toolCalls.length === 0) {
    if (text.trim() !== '') return { kind: 'final_output', outcome: 'answered', text };
    // An empty answer is unusable output: say so, and let the model correct itself.
    state.messages.push(
      { role: 'assistant', content: '' },
      { role: 'user', content: '(Your last answer was empty. Answer in text, or call a tool.)' },
    );
    return { kind: 'run_again' };
  }
  state.messages.push({ role: 'assistant', content: text, toolCalls });
  state.queue = [...toolCalls];
  return { kind: 'run_again' };
}

/** Runs the turn until it answers or pauses on an approval. Throws only when `signal` aborts. */
export async function runTurn(
  deps: PlannerDeps,
  state: TurnState,
  signal: AbortSignal,
): Promise<TurnResult> {
  const next = state.mode === 'single-shot' ? nextSingleShotStep : nextMultistepStep;
  for (;;) {
    // The offline model and a denied call never look at the signal: check it every round.
    signal.throwIfAborted();
    const step = await next(deps, state, signal);
    if (step.kind !== 'run_again') return step;
  }
}

/** Continues a paused turn after the person answered its card. */
export async function resumeTurn(
  deps: PlannerDeps,
  state: TurnState,
  answer:
    | { readonly kind: 'allow'; readonly approvedBy: string }
    | { readonly kind: 'deny'; readonly why: string },
  signal: AbortSignal,
): Promise<TurnResult> {
  const call = state.queue[0];
  if (!call) return runTurn(deps, state, signal);
  const result =
    answer.kind === 'allow'
      ? await processCall(deps, state, call, signal, answer.approvedBy)
      : declinedCall(deps, state, call, answer.why);
  if (result.kind === 'ask') return { kind: 'interruption', pending: result.pending, state };
  applyObservation(state, call, result);
  if (state.mode === 'multistep') {
    const stop = tooManyDenials(deps, state);
    if (stop) return stop;
  }
  return runTurn(deps, state, signal);
}
