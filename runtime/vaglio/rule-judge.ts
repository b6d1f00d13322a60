// rule-based-v1, exactly as DESIGN.md: fast, predictable, and almost never says no on its
// own (the guard does the real work). Deterministic, so its confidence is fixed.
import type { Judge, JudgeInput, JudgeResult } from './judge.ts';

const BASE = 0.7;
/** A deterministic heuristic knows little about meaning: it reports middling confidence. */
export const RULE_JUDGE_CONFIDENCE = 0.6;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function clamp(value: number): number {
  return Math.min(1, Math.max(0, value));
}

function* strings(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const item of value) yield* strings(item);
  else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) yield* strings(item);
  }
}

function* keys(value: unknown): Generator<string> {
  if (Array.isArray(value)) for (const item of value) yield* keys(item);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      yield key;
      yield* keys(item);
    }
  }
}

/** Score one call with the rule-based-v1 rules; pure and synchronous. */
export function scoreByRules(input: Omit<JudgeInput, 'availableTools'>): JudgeResult {
  let score = BASE;
  const signals: string[] = [];
  const intent = input.intent.toLowerCase();
  const tokens = input.executor.split('_').filter((token) => token.length >= 3);
  if (tokens.some((token) => intent.includes(token.toLowerCase()))) {
    score += 0.1;
    signals.push('intent names the executor');
  }
  for (const text of strings(input.args)) {
    if (text.includes('..') && text.includes('/')) {
      score -= 0.2;
      signals.push('path traversal (..) in args');
      break;
    }
  }
  for (const key of keys(input.args)) {
    if (!IDENTIFIER.test(key)) {
      score -= 0.1;
      signals.push('args key is not an identifier');
      break;
    }
  }
  if (input.context.critical === false) {
    score += 0.05;
    signals.push('executor is not critical');
  }
  const rounded = Math.round(clamp(score) * 100) / 100;
  return {
    score: rounded,
    confidence: RULE_JUDGE_CONFIDENCE,
    reasoning: signals.length > 0 ? signals.join('; ') : 'no signal',
    signals,
  };
}

/** The rule-based judge behind the Judge seam. */
export const ruleJudge: Judge = {
  name: 'rule-based-v1',
  kind: 'rule-based-v1',
  evaluate: (input) => Promise.resolve(scoreByRules(input)),
};

/**
 * The rule judge's threshold: CUSTODE_JUDGE_THRESHOLD read at call time, else the config's,
 * else 0.30. A malformed value returns null: the caller fails closed.
 */
export function ruleThreshold(
  env: NodeJS.ProcessEnv,
  configured: number | undefined,
): number | null {
  const raw = env.CUSTODE_JUDGE_THRESHOLD;
  if (raw === undefined || raw.trim() === '') return configured ?? 0.3;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 && value <= 1 ? value : null;
}
