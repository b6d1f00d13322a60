// The pre-execution pipeline's contract: a proposed call in, a decision out.
// Every stage returns a union; the first non-pass wins. A denial is data.
import type { AnyExecutor } from '../../executors/define.ts';
import type { CallContext } from '../vaglio/judge.ts';
import type { Verdict } from '../vaglio/verdict.ts';
import type { Grant } from './grant.ts';

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

interface OutcomeBase {
  readonly reason: string;
  readonly verdict: Verdict;
  readonly signals: readonly string[];
  /** Present once validation passed: the executor and its parsed args. */
  readonly executor?: AnyExecutor;
  readonly args?: unknown;
  readonly issues?: readonly ValidationIssue[];
}

/** Refused: the stage that denied says why; never askable. */
export interface DeniedOutcome extends OutcomeBase {
  readonly decision: 'deny';
  readonly stage: DenyStage;
}

/** A person must decide: the channel shows a card. */
export interface AskedOutcome extends OutcomeBase {
  readonly decision: 'ask';
  readonly stage: null;
}

/** Runs: with the grant that says who allowed it and what it may touch. */
export interface AllowedOutcome extends OutcomeBase {
  readonly decision: 'allow';
  readonly stage: null;
  readonly executor: AnyExecutor;
  readonly args: unknown;
  readonly grant: Grant;
}

export type PipelineOutcome = DeniedOutcome | AskedOutcome | AllowedOutcome;
