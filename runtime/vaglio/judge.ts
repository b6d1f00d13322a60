// The judge seam: rule-based-v1 and llm-v1 both answer through this interface.

/** What the planner tells the vaglio about a call besides its args. */
export interface CallContext {
  readonly mode?: 'multistep' | 'single-shot' | 'check';
  readonly step?: number;
  /** The capability the caller expects the call to need (check_hints rejects a mismatch). */
  readonly capability?: 'read' | 'write' | 'exec' | 'network';
  readonly critical?: boolean;
  /** Executors already denied earlier in this turn (the LLM judge sees them). */
  readonly policy_violations?: readonly string[];
  readonly [key: string]: unknown;
}

export interface JudgeInput {
  /** The person's message for this turn. */
  readonly intent: string;
  readonly executor: string;
  readonly args: unknown;
  readonly context: CallContext;
  /** Names and descriptions of the tools the planner offers. */
  readonly availableTools: readonly { name: string; description: string }[];
}

export interface JudgeResult {
  readonly score: number;
  readonly confidence: number;
  readonly reasoning: string;
  readonly signals: readonly string[];
  /** Set when the judge could not judge; the failure policy already applied to score. */
  readonly failure?: string;
}

export interface Judge {
  readonly name: string;
  readonly kind: 'rule-based-v1' | 'llm-v1';
  evaluate(input: JudgeInput, signal?: AbortSignal): Promise<JudgeResult>;
}
