// One proposed call, from the model's raw output to an observation: look the tool up
// (Map only), parse the arguments, put the call through the pipeline, run it if allowed.
// Unusable output and denials become observations; only "ask" leaves the loop.
import type { ToolCallRequest } from '../llm/client.ts';
import type { Decision, PipelineOutcome, ProposedCall } from '../pipeline/types.ts';
import { deniedObservation, renderObservation, type Observation } from './observation.ts';
import type { PendingCall, PlannerDeps, TurnState } from './turn-state.ts';

export type CallResult =
  | {
      readonly kind: 'observed';
      readonly decision: Decision | 'error' | 'declined';
      readonly content: string;
    }
  | { readonly kind: 'ask'; readonly pending: PendingCall };

type Parsed = { ok: true; args: Record<string, unknown> } | { ok: false; reason: string };

function parseArguments(text: string): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(text === '' ? '{}' : text);
  } catch (error) {
    return {
      ok: false,
      reason: `The arguments are not valid JSON (${(error as Error).message}). Send one JSON object.`,
    };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, reason: 'The arguments must be one JSON object.' };
  }
  return { ok: true, args: value as Record<string, unknown> };
}

/** The ProposedCall the pipeline judges for this tool call in this turn. */
export function proposedCall(
  deps: PlannerDeps,
  state: TurnState,
  name: string,
  args: unknown,
  approvedBy?: string,
): ProposedCall {
  const executor = deps.pipeline.executors.get(name);
  return {
    executor: name,
    args,
    intent: state.intent,
    sender: state.sender,
    context: {
      mode: state.mode,
      step: state.step,
      ...(executor
        ? { capability: executor.capabilities.access, critical: executor.critical }
        : {}),
      policy_violations: [...state.policyViolations],
    },
    ...(approvedBy !== undefined ? { approvedBy } : {}),
  };
}

async function invoke(
  deps: PlannerDeps,
  outcome: PipelineOutcome,
  signal: AbortSignal,
): Promise<Observation> {
  const result = await deps.pipeline.invoke(outcome, signal);
  if (result.ok) return { status: 'ok', result: result.result };
  return { status: 'error', reason: `${result.error.name}: ${result.error.message}` };
}

type StepDecision = Decision | 'error' | 'declined';

/** Emits the step event for one processed call (the turn log and the chat both see it). */
function recordStep(
  deps: PlannerDeps,
  state: TurnState,
  call: ToolCallRequest,
  step: {
    decision: StepDecision;
    args: unknown;
    reason: string;
    started: number;
    outcome?: PipelineOutcome;
    content: string;
  },
): void {
  const { outcome } = step;
  deps.emit({
    turn_id: state.turnId,
    channel: state.channel,
    chat_id: state.chatId,
    type: 'step',
    step: state.step,
    executor: call.name,
    args: step.args,
    decision: step.decision,
    reason: step.reason,
    duration_ms: Math.round((performance.now() - step.started) * 1000) / 1000,
    observation_bytes: Buffer.byteLength(step.content),
    ...(outcome?.issues && outcome.issues.length > 0 ? { issues: outcome.issues } : {}),
    ...(outcome?.stage === 'scope' ? { scope_violation: outcome.reason } : {}),
    ...(outcome ? { verdict: outcome.verdict } : {}),
  });
}

/** Decides one call; `approvedBy` marks a call a person approved on a card (guard and judge run again). */
export async function processCall(
  deps: PlannerDeps,
  state: TurnState,
  call: ToolCallRequest,
  signal: AbortSignal,
  approvedBy?: string,
): Promise<CallResult> {
  const started = performance.now();
  const observed = (
    decision: StepDecision,
    observation: Observation,
    args: unknown,
    outcome?: PipelineOutcome,
  ): CallResult => {
    const content = renderObservation(observation);
    const reason = 'reason' in observation ? observation.reason : (outcome?.reason ?? '');
    recordStep(deps, state, call, {
      decision,
      args,
      reason,
      started,
      content,
      ...(outcome ? { outcome } : {}),
    });
    return { kind: 'observed', decision, content };
  };

  if (!deps.pipeline.executors.has(call.name)) {
    const known = [...deps.pipeline.executors.keys()].join(', ');
    const reason = `There is no tool named "${call.name}". Available tools: ${known}.`;
    return observed('error', { status: 'error', reason }, call.argumentsText);
  }
  const parsed = parseArguments(call.argumentsText);
  if (!parsed.ok)
    return observed('error', { status: 'error', reason: parsed.reason }, call.argumentsText);

  const proposed = proposedCall(deps, state, call.name, parsed.args, approvedBy);
  const outcome = await deps.pipeline.evaluate(proposed, signal);
  switch (outcome.decision) {
    case 'allow':
      return observed('allow', await invoke(deps, outcome, signal), parsed.args, outcome);
    case 'deny':
      deps.emit({
        turn_id: state.turnId,
        channel: state.channel,
        chat_id: state.chatId,
        type: 'refused',
        step: state.step,
        card: await deps.buildCard(proposed, outcome),
      });
      return observed('deny', deniedObservation(outcome), parsed.args, outcome);
    case 'ask': {
      // Already approved and still asking would loop for ever: fail closed.
      if (approvedBy !== undefined) {
        const reason = `still needs approval after approval: ${outcome.reason}`;
        return observed(
          'deny',
          { status: 'denied', stage: 'policy', reason },
          parsed.args,
          outcome,
        );
      }
      recordStep(deps, state, call, {
        decision: 'ask',
        args: parsed.args,
        reason: outcome.reason,
        started,
        outcome,
        content: '',
      });
      return {
        kind: 'ask',
        pending: { call: proposed, outcome, card: await deps.buildCard(proposed, outcome) },
      };
    }
  }
}

/** The observation for a call the person declined on its card (or whose card expired). */
export function declinedCall(
  deps: PlannerDeps,
  state: TurnState,
  call: ToolCallRequest,
  why: string,
): CallResult {
  const content = renderObservation({ status: 'declined', reason: why });
  const parsed = parseArguments(call.argumentsText);
  const args = parsed.ok ? parsed.args : call.argumentsText;
  recordStep(deps, state, call, {
    decision: 'declined',
    args,
    reason: why,
    started: performance.now(),
    content,
  });
  return { kind: 'observed', decision: 'declined', content };
}
