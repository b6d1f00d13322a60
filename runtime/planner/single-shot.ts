// Single-shot planning: the model returns the whole plan in one response; each call still
// goes through the pipeline before it runs, and a refused step stops the plan with a report
// of what ran and what did not.
import type { ToolCallRequest } from '../llm/client.ts';
import { processCall } from './call-step.ts';
import { applyObservation, askModel } from './turn-bookkeeping.ts';
import type { NextStep, PlannerDeps, TurnState } from './turn-state.ts';

function label(call: ToolCallRequest): string {
  const args =
    call.argumentsText.length > 80 ? `${call.argumentsText.slice(0, 77)}...` : call.argumentsText;
  return `${call.name} ${args}`;
}

function stoppedReport(state: TurnState, failed: ToolCallRequest, reason: string): string {
  const notRun = state.queue.map((call) => `  - ${label(call)}`);
  return [
    `I stopped the plan at step ${String(state.report.length + 1)}: ${label(failed)} was not run (${reason}).`,
    state.report.length > 0
      ? `Ran:\n${state.report.map((line) => `  - ${line}`).join('\n')}`
      : 'Nothing ran.',
    notRun.length > 0 ? `Not run:\n${notRun.join('\n')}` : '',
  ]
    .filter((part) => part !== '')
    .join('\n');
}

function reasonOf(content: string): string {
  try {
    const parsed = JSON.parse(content) as { reason?: unknown };
    return typeof parsed.reason === 'string' ? parsed.reason : 'refused';
  } catch {
    return 'refused';
  }
}

/** One step of a single-shot turn (the same step union as the multistep loop). */
export async function nextSingleShotStep(
  deps: PlannerDeps,
  state: TurnState,
  signal: AbortSignal,
): Promise<NextStep> {
  const call = state.queue[0];
  if (call) {
    const result = await processCall(deps, state, call, signal);
    if (result.kind === 'ask') return { kind: 'interruption', pending: result.pending, state };
    applyObservation(state, call, result);
    if (result.decision === 'allow') {
      state.report.push(label(call));
      return { kind: 'run_again' };
    }
    return {
      kind: 'final_output',
      outcome: 'stopped',
      text: stoppedReport(state, call, reasonOf(result.content)),
    };
  }
  if (state.step === 0) {
    const answer = await askModel(deps, state, signal, true);
    if (!answer.ok) return { kind: 'final_output', outcome: 'failed', text: answer.text };
    const { text, toolCalls } = answer.response;
    if (toolCalls.length === 0) {
      return {
        kind: 'final_output',
        outcome: 'answered',
        text: text.trim() === '' ? 'The model proposed no plan and no answer.' : text,
      };
    }
    state.messages.push({ role: 'assistant', content: text, toolCalls });
    state.queue = [...toolCalls];
    return { kind: 'run_again' };
  }
  // The plan has run: one more model call, without tools, turns the results into an answer.
  const answer = await askModel(deps, state, signal, false);
  const ran = `Ran:\n${state.report.map((line) => `  - ${line}`).join('\n')}`;
  if (!answer.ok)
    return { kind: 'final_output', outcome: 'failed', text: `${ran}\n${answer.text}` };
  return {
    kind: 'final_output',
    outcome: 'answered',
    text: answer.response.text.trim() === '' ? ran : answer.response.text,
  };
}
