// The planner's typed events. The turn log, the channels' step lines and typing
// indicators subscribe; a sink that throws is logged and never blocks a decision.
import type { ApprovalCard } from '../approvals/card.ts';
import type { Logger } from '../log/logger.ts';
import type { Decision, ValidationIssue } from '../pipeline/types.ts';
import type { Verdict } from '../vaglio/verdict.ts';

export interface TurnRef {
  readonly turn_id: string;
  readonly channel: string;
  readonly chat_id: string;
}

export type PlannerEvent =
  | (TurnRef & {
      readonly type: 'turn_started';
      readonly sender: string;
      readonly intent: string;
      readonly mode: 'multistep' | 'single-shot';
    })
  | (TurnRef & { readonly type: 'model_call'; readonly step: number })
  /** A denied call's refusal card, for the channel (the step event carries the decision). */
  | (TurnRef & { readonly type: 'refused'; readonly step: number; readonly card: ApprovalCard })
  | (TurnRef & {
      readonly type: 'step';
      readonly step: number;
      readonly executor: string;
      readonly args: unknown;
      readonly issues?: readonly ValidationIssue[];
      readonly scope_violation?: string;
      readonly verdict?: Verdict;
      /** allow/ask/deny from the pipeline, or "error" for unusable model output, "declined" by the person. */
      readonly decision: Decision | 'error' | 'declined';
      readonly reason: string;
      readonly duration_ms: number;
      readonly observation_bytes: number;
    })
  /**
   * A parked turn picked up again after its card was answered (or expired), written before
   * the approved call runs: a crash after this line leaves the turn unfinished, so the next
   * daemon tells its chat that the approved call may have run in part.
   */
  | (TurnRef & {
      readonly type: 'turn_resumed';
      readonly answer: 'once' | 'always' | 'deny' | 'expired';
      readonly by: string;
      readonly executor: string;
      readonly args: unknown;
    })
  | (TurnRef & {
      readonly type: 'turn_ended';
      readonly outcome: 'answered' | 'stopped' | 'failed' | 'cancelled' | 'waiting';
      readonly steps: number;
      readonly reason?: string;
    });

export type EventSink = (event: PlannerEvent) => void | Promise<void>;

/** Calls every sink; failures (sync or async) are logged, never thrown, never awaited. */
export function fanOut(sinks: readonly EventSink[], logger: Logger): EventSink {
  return (event) => {
    for (const sink of sinks) {
      try {
        const pending = sink(event);
        if (pending)
          pending.catch((error: unknown) =>
            logger.warn({ err: error, event: event.type }, 'event sink failed'),
          );
      } catch (error) {
        logger.warn({ err: error, event: event.type }, 'event sink failed');
      }
    }
  };
}
