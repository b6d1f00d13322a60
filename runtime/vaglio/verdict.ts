// The vaglio's decision, as data. Written to the audit log (with keys, never values).

export type JudgeKind = 'rule-based-v1' | 'llm-v1' | `consensus:${string}`;

/** One judge's own result inside a verdict (several when a panel ran). */
export interface JudgeRecord {
  readonly name: string;
  readonly kind: JudgeKind;
  readonly approved: boolean;
  readonly score: number;
  readonly confidence: number;
  /** Set when the judge failed (timeout, malformed output, provider error) and how it was treated. */
  readonly failure?: string;
}

export interface Verdict {
  readonly approved: boolean;
  readonly reason: string;
  readonly ts: string;
  readonly judge_kind: JudgeKind;
  readonly score: number;
  readonly confidence: number;
  readonly blocked_by: 'guard' | 'judge' | null;
  readonly signals: readonly string[];
  /** The panel's individual results, when LLM judges ran. */
  readonly judges?: readonly JudgeRecord[];
  /** The consensus strategy or "sequence", when LLM judges ran. */
  readonly strategy?: string;
}
