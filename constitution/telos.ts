// The person's goals (their "telos"), read from an optional TELOS.md. The LLM judge weighs a
// proposed call against them as well as against the laws. Pure: the caller reads the file.

/** One goal with its weight; the weights of a parsed telos sum to 1. */
export interface TelosGoal {
  readonly text: string;
  readonly weight: number;
}

// "- goal text (weight 3)"; the weight is optional (1) and may be fractional.
const GOAL_LINE = /^\s*[-*+]\s+(.+?)\s*(?:\(\s*weight\s*[:=]?\s*(\d+(?:\.\d+)?)\s*\))?\s*$/i;
// A goal longer than this is almost certainly prose pasted by mistake; it is cut, not dropped.
const MAX_GOAL_CHARS = 300;
// Keeps the judge's system prompt bounded whatever the file holds.
const MAX_GOALS = 30;

/**
 * Parse TELOS.md: every Markdown list item is a goal, `(weight N)` at its end sets its
 * relative weight (default 1, a weight of 0 drops the goal). Weights are renormalised to sum
 * to 1. Headings and prose are ignored; an empty or goal-less file gives no goals.
 */
export function parseTelos(text: string): TelosGoal[] {
  const raw: { text: string; weight: number }[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = GOAL_LINE.exec(line);
    const goal = match?.[1];
    if (goal === undefined) continue;
    const weight = match?.[2] === undefined ? 1 : Number(match[2]);
    if (!Number.isFinite(weight) || weight <= 0) continue;
    raw.push({ text: goal.slice(0, MAX_GOAL_CHARS), weight });
    if (raw.length === MAX_GOALS) break;
  }
  const total = raw.reduce((sum, goal) => sum + goal.weight, 0);
  return raw.map((goal) => ({ text: goal.text, weight: goal.weight / total }));
}

/** The goals as prompt lines, heaviest first: `- (0.50) goal text`. */
export function renderTelos(goals: readonly TelosGoal[]): string {
  return [...goals]
    .sort((a, b) => b.weight - a.weight)
    .map((goal) => `- (${goal.weight.toFixed(2)}) ${goal.text}`)
    .join('\n');
}
