// The planner's serialisable turn: everything needed to resume a turn after an approval,
// even in another process (it is stored with the PendingApproval).
import * as z from 'zod';
import type { ApprovalCard } from '../approvals/card.ts';
import type { Config } from '../config.ts';
import type { ChatMessage, LlmClient, ToolCallRequest } from '../llm/client.ts';
import type { Pipeline } from '../pipeline/pipeline.ts';
import type { PipelineOutcome, ProposedCall } from '../pipeline/types.ts';
import type { Logger } from '../log/logger.ts';
import type { EventSink } from './events.ts';

/** A tool call as the planner keeps it. */
export const toolCallSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  argumentsText: z.string(),
});
/** One saved conversation message (the system prompt is never saved). */
export const messageSchema = z.discriminatedUnion('role', [
  z.strictObject({ role: z.literal('user'), content: z.string() }),
  z.strictObject({
    role: z.literal('assistant'),
    content: z.string(),
    toolCalls: z.array(toolCallSchema).optional(),
  }),
  z.strictObject({
    role: z.literal('tool'),
    toolCallId: z.string(),
    name: z.string(),
    content: z.string(),
  }),
]);
/** Validates a TurnState read back from disk (a pending approval) before resuming it. */
export const turnStateSchema = z.strictObject({
  v: z.literal(1),
  turnId: z.string(),
  mode: z.enum(['multistep', 'single-shot']),
  channel: z.string(),
  chatId: z.string(),
  sender: z.string(),
  intent: z.string(),
  messages: z.array(
    z.union([z.strictObject({ role: z.literal('system'), content: z.string() }), messageSchema]),
  ),
  turnFrom: z.number().int().nonnegative().optional(),
  step: z.number().int().nonnegative(),
  denialsInARow: z.number().int().nonnegative(),
  policyViolations: z.array(z.string()),
  queue: z.array(toolCallSchema),
  report: z.array(z.string()),
});

export interface TurnState {
  readonly v: 1;
  readonly turnId: string;
  readonly mode: 'multistep' | 'single-shot';
  readonly channel: string;
  readonly chatId: string;
  /** Channel-qualified sender, e.g. "telegram:42". */
  readonly sender: string;
  /** The person's message for this turn: the intent every call is judged against. */
  readonly intent: string;
  /** System prompt, history and this turn's messages so far. */
  messages: ChatMessage[];
  /** Where this turn's own messages start in `messages` (absent in turns parked by older versions). */
  readonly turnFrom?: number;
  /** Model calls made in this turn. */
  step: number;
  denialsInARow: number;
  /** Executors denied earlier in this turn (the LLM judge sees them). */
  policyViolations: string[];
  /** Calls of the current model response not yet processed; the first is the one waiting on a card. */
  queue: ToolCallRequest[];
  /** Single-shot: one line per step already run, for the final report. */
  report: string[];
}

/** What the planner needs; all of it injected (the model, the pipeline, the card builder). */
export interface PlannerDeps {
  readonly config: Config;
  readonly client: LlmClient;
  readonly pipeline: Pipeline;
  readonly buildCard: (call: ProposedCall, outcome: PipelineOutcome) => Promise<ApprovalCard>;
  readonly emit: EventSink;
  /** The operator log: provider faults in full (the person gets one sentence). */
  readonly logger: Logger;
}

export interface PendingCall {
  readonly call: ProposedCall;
  readonly outcome: PipelineOutcome;
  readonly card: ApprovalCard;
}

/** The loop's step union: go round again, answer, or pause for a person. */
export type NextStep =
  | { readonly kind: 'run_again' }
  | {
      readonly kind: 'final_output';
      readonly text: string;
      readonly outcome: 'answered' | 'stopped' | 'failed';
    }
  | { readonly kind: 'interruption'; readonly pending: PendingCall; readonly state: TurnState };

export type TurnResult = Exclude<NextStep, { kind: 'run_again' }>;
