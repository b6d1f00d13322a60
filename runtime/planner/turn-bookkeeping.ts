// Turn bookkeeping shared by the multistep loop and single-shot plans: recording an
// observation, asking the model, closing calls that will not run.
import type { ToolCallRequest } from '../llm/client.ts';
import { toolSpecsOf } from '../llm/tool-specs.ts';
import type { CallResult } from './call-step.ts';
import { renderObservation } from './observation.ts';
import { describeProviderFault } from './provider-fault.ts';
import type { PlannerDeps, TurnResult, TurnState } from './turn-state.ts';

/** Records a processed call's observation and updates the turn's denial bookkeeping. */
export function applyObservation(
  state: TurnState,
  call: ToolCallRequest,
  result: Extract<CallResult, { kind: 'observed' }>,
): void {
  state.messages.push({
    role: 'tool',
    toolCallId: call.id,
    name: call.name,
    content: result.content,
  });
  state.queue.shift();
  if (result.decision === 'deny' || result.decision === 'declined') {
    state.denialsInARow += 1;
    if (!state.policyViolations.includes(call.name)) state.policyViolations.push(call.name);
  } else if (result.decision === 'allow') {
    state.denialsInARow = 0;
  }
}

/** Asks the model for its next move; a provider fault after retries ends the turn in one sentence. */
export async function askModel(
  deps: PlannerDeps,
  state: TurnState,
  signal: AbortSignal,
  withTools: boolean,
) {
  state.step += 1;
  deps.emit({
    turn_id: state.turnId,
    channel: state.channel,
    chat_id: state.chatId,
    type: 'model_call',
    step: state.step,
  });
  try {
    const response = await deps.client.chat({
      messages: state.messages,
      ...(withTools ? { tools: toolSpecsOf(deps.pipeline.executors) } : {}),
      signal,
    });
    return { ok: true as const, response };
  } catch (error) {
    if (signal.aborted) throw error;
    deps.logger.warn(
      { err: error, provider: deps.client.provider, turn: state.turnId },
      'model call failed',
    );
    return { ok: false as const, text: describeProviderFault(error) };
  }
}

/** The final output when too many proposed actions in a row were refused, else null. */
export function tooManyDenials(deps: PlannerDeps, state: TurnState): TurnResult | null {
  if (state.denialsInARow < deps.config.planner.max_denials_in_a_row) return null;
  return {
    kind: 'final_output',
    outcome: 'stopped',
    text: `I stopped: ${String(state.denialsInARow)} proposed actions in a row were refused. Rephrase the request or do it another way.`,
  };
}

/** Answers calls the turn will not run, so the history never holds a call without its result. */
export function closeOpenCalls(state: TurnState, why: string): void {
  for (const call of state.queue) {
    state.messages.push({
      role: 'tool',
      toolCallId: call.id,
      name: call.name,
      content: renderObservation({ status: 'error', reason: `not run: ${why}` }),
    });
  }
  state.queue = [];
}
