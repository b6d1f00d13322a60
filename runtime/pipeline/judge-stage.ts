// Stage 4: the rule-based judge always runs (it costs microseconds); the LLM panel runs
// unless the operator's skip_judge spares this executor. Any failure denies (fail closed).
import type { AnyExecutor } from '../../executors/define.ts';
import type { Config } from '../config.ts';
import type { JudgeInput } from '../vaglio/judge.ts';
import type { LlmPanel } from '../vaglio/panel.ts';
import { shouldSkipLlmJudges } from '../vaglio/panel.ts';
import { ruleThreshold, scoreByRules } from '../vaglio/rule-judge.ts';
import type { JudgeRecord, Verdict } from '../vaglio/verdict.ts';

export interface JudgeStageInput {
  readonly judgeInput: JudgeInput;
  readonly executor: AnyExecutor;
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  readonly panel: LlmPanel | null;
  readonly signal?: AbortSignal;
}

/** The threshold the judge stage applied, for the policy's grey band. */
export interface JudgeStageResult {
  readonly verdict: Verdict;
  readonly threshold: number;
}

function format(score: number): string {
  return score.toFixed(2);
}

/** The grey band of an LLM panel is measured against its judges' lowest min_score. */
function panelThreshold(config: Config): number {
  const scores = config.vaglio.judges.map((judge) => judge.min_score);
  return scores.length > 0 ? Math.min(...scores) : 0.5;
}

/** Run the judges and return the verdict (approved or blocked_by "judge"). */
export async function runJudgeStage(input: JudgeStageInput): Promise<JudgeStageResult> {
  const ts = new Date().toISOString();
  const threshold = ruleThreshold(input.env, input.config.vaglio.threshold);
  const rule = scoreByRules(input.judgeInput);
  const why = rule.signals.length > 0 ? rule.signals.join(', ') : 'no signal';
  if (threshold === null) {
    const reason = 'judge: CUSTODE_JUDGE_THRESHOLD is not a number in [0,1]; failing closed';
    const verdict: Verdict = {
      approved: false,
      reason,
      ts,
      judge_kind: 'rule-based-v1',
      score: rule.score,
      confidence: rule.confidence,
      blocked_by: 'judge',
      signals: [...rule.signals, 'invalid threshold'],
    };
    return { verdict, threshold: 0.3 };
  }
  const ruleVerdict: Verdict =
    rule.score < threshold
      ? {
          approved: false,
          reason: `judge: score ${format(rule.score)} < threshold ${format(threshold)} (${why})`,
          ts,
          judge_kind: 'rule-based-v1',
          score: rule.score,
          confidence: rule.confidence,
          blocked_by: 'judge',
          signals: rule.signals,
        }
      : {
          approved: true,
          reason: `approved: score ${format(rule.score)} (${why})`,
          ts,
          judge_kind: 'rule-based-v1',
          score: rule.score,
          confidence: rule.confidence,
          blocked_by: null,
          signals: rule.signals,
        };
  if (
    !ruleVerdict.approved ||
    input.panel === null ||
    shouldSkipLlmJudges(input.executor, input.config)
  ) {
    return { verdict: ruleVerdict, threshold };
  }
  const panel = await input.panel.evaluate(input.judgeInput, input.signal);
  const ruleRecord: JudgeRecord = {
    name: 'rule-based-v1',
    kind: 'rule-based-v1',
    approved: true,
    score: rule.score,
    confidence: rule.confidence,
  };
  const verdict: Verdict = {
    approved: panel.approved,
    reason: panel.approved ? `approved: ${panel.reason}` : `judge: ${panel.reason}`,
    ts,
    judge_kind: panel.judge_kind,
    score: panel.score,
    confidence: panel.confidence,
    blocked_by: panel.approved ? null : 'judge',
    signals: [...rule.signals, ...panel.signals],
    judges: [ruleRecord, ...panel.judges],
    strategy: panel.strategy,
  };
  return { verdict, threshold: panelThreshold(input.config) };
}
