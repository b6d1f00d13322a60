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

/** Decides one call; `approvedBy` marks a call a person approved on a card (guard and judge run again). */
export async function processCall(
  deps: PlannerDeps,
  state: TurnState,
  call: ToolCallRequest,
  signal: AbortSignal,
  approvedBy?: string,
): Promise<CallResult> {
  const started = performance.now();
  const ref = { turn_id: state.turnId, channel: state.channel, chat_id: state.chatId };
  const finish = (
    decision: Decision | 'error' | 'declined',
    observation: Observation,
    args: unknown,
    outcome?: PipelineOutcome,
  ): CallResult => {
    const content = renderObservation(observation);
    deps.emit({
      ...ref,
      type: 'step',
      step: state.step,
      executor: call.name,
      args,
      decision,
      reason: 'reason' in observation ? observation.reason : (outcome?.reason ?? ''),
      duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
      observation_bytes: Buffer.byteLength(content),
      ...(outcome?.issues && outcome.issues.length > 0 ? { issues: outcome.issues } : {}),
      ...(outcome?.stage === 'scope' ? { scope_violation: outcome.reason } : {}),
      ...(outcome ? { verdict: outcome.verdict } : {}),
    });
    return { kind: 'observed', decision, content };
  };

  if (!deps.pipeline.executors.has(call.name)) {
    const known = [...deps.pipeline.executors.keys()].join(', ');
    return finish(
      'error',
      {
        status: 'error',
        reason: `There is no tool named "${call.name}". Available tools: ${known}.`,
      },
      call.argumentsText,
    );
  }
  const parsed = parseArguments(call.argumentsText);
  if (!parsed.ok)
    return finish('error', { status: 'error', reason: parsed.reason }, call.argumentsText);

  const proposed = proposedCall(deps, state, call.name, parsed.args, approvedBy);
  const outcome = await deps.pipeline.evaluate(proposed, signal);
  switch (outcome.decision) {
    case 'allow':
      return finish('allow', await invoke(deps, outcome, signal), parsed.args, outcome);
    case 'deny':
      deps.emit({
        ...ref,
        type: 'refused',
        step: state.step,
        card: deps.buildCard(proposed, outcome),
      });
      return finish('deny', deniedObservation(outcome), parsed.args, outcome);
    case 'ask':
      // Already approved and still asking would loop for ever: fail closed.
      if (approvedBy !== undefined) {
        return finish(
          'deny',
          {
            status: 'denied',
            stage: 'policy',
            reason: `still needs approval after approval: ${outcome.reason}`,
          },
          parsed.args,
          outcome,
        );
      }
      deps.emit({
        ...ref,
        type: 'step',
        step: state.step,
        executor: call.name,
        args: parsed.args,
        decision: 'ask',
        reason: outcome.reason,
        verdict: outcome.verdict,
        duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
        observation_bytes: 0,
      });
      return {
        kind: 'ask',
        pending: { call: proposed, outcome, card: deps.buildCard(proposed, outcome) },
      };
  }
}

/** The call's arguments as an object when they parse, else the raw text (for logs and step lines). */
function argsForLog(call: ToolCallRequest): unknown {
  const parsed = parseArguments(call.argumentsText);
  return parsed.ok ? parsed.args : call.argumentsText;
}

/** The observation for a call the person declined on its card. */
export function declinedCall(
  deps: PlannerDeps,
  state: TurnState,
  call: ToolCallRequest,
  why: string,
): CallResult {
  const content = renderObservation({ status: 'declined', reason: why });
  deps.emit({
    turn_id: state.turnId,
    channel: state.channel,
    chat_id: state.chatId,
    type: 'step',
    step: state.step,
    executor: call.name,
    args: argsForLog(call),
    decision: 'declined',
    reason: why,
    duration_ms: 0,
    observation_bytes: Buffer.byteLength(content),
  });
  return { kind: 'observed', decision: 'declined', content };
}
