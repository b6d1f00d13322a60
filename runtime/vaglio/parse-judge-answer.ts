// The judge model's answer is text; this finds the one JSON verdict in it (bare, in a code
// fence, or inside prose) and checks it strictly. Anything unclear is invalid: the caller
// applies the judge's failure policy, so a garbled answer can never approve a call.
import * as z from 'zod';

/** The judge model's answer, validated. */
export interface JudgeAnswer {
  readonly score: number;
  readonly confidence: number;
  readonly reasoning: string;
  readonly signals: readonly string[];
}

/** The parse outcome: the answer, or why it is unusable. */
export type ParsedJudgeAnswer =
  | { readonly ok: true; readonly answer: JudgeAnswer }
  | { readonly ok: false; readonly error: string };

const answerSchema = z.lazy(() =>
  z.strictObject({
    score: z.number().min(0).max(1),
    confidence: z.number().min(0).max(1),
    reasoning: z.string(),
    signals: z.array(z.string()).optional(),
  }),
);

// Bounds keep the brace scan linear-ish on hostile output; a real verdict is short.
const MAX_TEXT_CHARS = 32_000;
const MAX_CANDIDATES = 20;
const FENCE = /```[a-zA-Z]*[ \t]*\r?\n([\s\S]*?)```/g;

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** Index just past the `}` closing the object that opens at `start`, or -1. */
function closingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth += 1;
    else if (char === '}') {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Top-level JSON objects embedded in prose (objects nested in one are not separate candidates). */
function objectsInProse(text: string): unknown[] {
  const found: unknown[] = [];
  let from = text.indexOf('{');
  while (from !== -1 && found.length < MAX_CANDIDATES) {
    const end = closingBrace(text, from);
    if (end === -1) break;
    const parsed = parseJson(text.slice(from, end));
    if (parsed.ok) {
      found.push(parsed.value);
      from = text.indexOf('{', end);
    } else {
      from = text.indexOf('{', from + 1);
    }
  }
  return found;
}

function candidates(text: string): unknown[] {
  const whole = parseJson(text.trim());
  if (whole.ok) return [whole.value];
  const fenced = [...text.matchAll(FENCE)].map((match) => parseJson((match[1] ?? '').trim()));
  const fromFences = fenced.flatMap((parsed) => (parsed.ok ? [parsed.value] : []));
  return fromFences.length > 0 ? fromFences : objectsInProse(text);
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 4)
    .map(
      (issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(answer)'}: ${issue.message}`,
    )
    .join('; ');
}

/**
 * Find and validate `{score, confidence, reasoning, signals?}` in a model's answer. Scores or
 * confidence outside [0,1], missing or unknown keys, wrong types, no JSON at all, or several
 * different verdicts in one answer are all `{ok: false}` with an error that names the problem
 * (never quoting the model's text, which may echo argument values).
 */
export function parseJudgeAnswer(text: string): ParsedJudgeAnswer {
  if (text.trim() === '') return { ok: false, error: 'empty answer' };
  if (text.length > MAX_TEXT_CHARS) {
    return { ok: false, error: `answer longer than ${MAX_TEXT_CHARS} characters` };
  }
  const found = candidates(text);
  if (found.length === 0) return { ok: false, error: 'no JSON object in the answer' };
  const valid: JudgeAnswer[] = [];
  let firstError: string | undefined;
  for (const value of found) {
    const result = answerSchema.safeParse(value);
    if (result.success) {
      const { signals, ...rest } = result.data;
      valid.push({ ...rest, signals: signals ?? [] });
    } else {
      firstError ??= describeIssues(result.error);
    }
  }
  const first = valid[0];
  if (first === undefined)
    return { ok: false, error: `invalid verdict: ${firstError ?? 'unknown'}` };
  const distinct = new Set(valid.map((answer) => `${answer.score}|${answer.confidence}`));
  if (distinct.size > 1) {
    return { ok: false, error: `ambiguous: ${distinct.size} different verdicts in one answer` };
  }
  return { ok: true, answer: first };
}
