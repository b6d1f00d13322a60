// The pre-execution pipeline's contract: a proposed call in, a decision out.
// Every stage returns a union; the first non-pass wins. A denial is data.
import type { AnyExecutor } from '../../executors/define.ts';
import type { CallContext } from '../vaglio/judge.ts';
import type { Verdict } from '../vaglio/verdict.ts';

export interface ProposedCall {
  readonly executor: string;
  readonly args: unknown;
  /** The person's message for this turn. */
  readonly intent: string;
  readonly context?: CallContext;
  /** Who asked (channel-qualified id, e.g. "telegram:42"); always-allow rules are per sender. */
  readonly sender?: string;
  /** Set when a person approved this exact call: policy allows instead of asking. Guard and judge still run. */
  readonly approvedBy?: string;
}

export type Decision = 'allow' | 'ask' | 'deny';
/** "audit": the decision could not be written to the audit log, so nothing runs. */
export type DenyStage = 'validation' | 'scope' | 'guard' | 'judge' | 'audit';

export type StageResult =
  | { readonly kind: 'pass'; readonly signals?: readonly string[] }
  | {
      readonly kind: 'deny';
      readonly stage: DenyStage;
      readonly reason: string;
      readonly signals: readonly string[];
    }
  | { readonly kind: 'ask'; readonly reason: string; readonly signals: readonly string[] };

export interface ValidationIssue {
  readonly path: string;
  readonly message: string;
}

export interface PipelineOutcome {
  readonly decision: Decision;
  /** The stage that denied; null when allowed or asked. */
  readonly stage: DenyStage | null;
  readonly reason: string;
  readonly verdict: Verdict;
  readonly signals: readonly string[];
  /** Present once validation passed: the executor and its parsed args. */
  readonly executor?: AnyExecutor;
  readonly args?: unknown;
  readonly issues?: readonly ValidationIssue[];
  /** Set on an allow: the only paths the executor may write (see PolicyResult); undefined = roots.write. */
  readonly writable?: readonly string[];
  /** Paths an uncarded workspace call writes outside scratch; recorded as unreviewed on invoke. */
  readonly written?: readonly string[];
  /** An always-allow rule let a command through that may write anywhere it could (recorded). */
  readonly writesUnseen?: boolean;
  /** A person approved project code over the pending unreviewed writes (cleared on invoke). */
  readonly reviews?: boolean;
  /** Places inside `writable` that stay read-only; set with it. */
  readonly readOnlyWithin?: readonly string[];
}
