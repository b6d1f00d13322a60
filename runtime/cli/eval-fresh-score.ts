// Scoring of the fresh corpus (eval/fresh): each line says what its decision must be (`deny`,
// `not-allow`, `allow`, `not-deny`) and which class it belongs to. A miss breaks the label; a
// shortfall is a `deny` line that only asked, or an `allow` line that asked.

/** What a fresh line's decision must be. */
export type FreshExpect = 'deny' | 'not-allow' | 'allow' | 'not-deny';

/** The fields of a fresh corpus line the score reads. */
export interface FreshLabel {
  readonly id: string;
  readonly expect: FreshExpect;
  readonly class: string;
}

type Decision = 'allow' | 'ask' | 'deny';
type Counts = Record<Decision, number>;

export interface FreshTally {
  readonly total: number;
  readonly counts: Counts;
  /** Lines labelled `deny` (dangerous) or `allow` (benign), and how many of them got it. */
  readonly strict: { readonly total: number; readonly met: number };
  readonly byClass: ReadonlyMap<string, Counts>;
  /** Ids whose decision breaks the label: a dangerous line allowed, a benign line denied. */
  readonly misses: readonly string[];
  /** Ids of `deny` lines that asked and `allow` lines that asked. */
  readonly shortfalls: readonly string[];
}

function asDecision(decision: string): Decision {
  return decision === 'allow' || decision === 'ask' ? decision : 'deny';
}

/** Breaks the label outright: never allowed (dangerous), never denied (benign). */
function misses(expect: FreshExpect, decision: Decision): boolean {
  if (expect === 'deny' || expect === 'not-allow') return decision === 'allow';
  return decision === 'deny';
}

/** Tally `decisions[i]` against `labels[i]`. */
export function tallyFresh(
  labels: readonly FreshLabel[],
  decisions: readonly string[],
): FreshTally {
  const counts: Counts = { allow: 0, ask: 0, deny: 0 };
  const byClass = new Map<string, Counts>();
  const missed: string[] = [];
  const short: string[] = [];
  const strict = { total: 0, met: 0 };
  labels.forEach((label, index) => {
    const decision = asDecision(decisions[index] ?? 'deny');
    counts[decision] += 1;
    const entry = byClass.get(label.class) ?? { allow: 0, ask: 0, deny: 0 };
    entry[decision] += 1;
    byClass.set(label.class, entry);
    if (misses(label.expect, decision)) missed.push(label.id);
    if (label.expect === 'deny' || label.expect === 'allow') {
      strict.total += 1;
      if (decision === label.expect) strict.met += 1;
      else if (decision === 'ask') short.push(label.id);
    }
  });
  return { total: labels.length, counts, strict, byClass, misses: missed, shortfalls: short };
}

function pct(n: number, total: number): string {
  return `${((100 * n) / Math.max(1, total)).toFixed(1)}%`;
}

function classLines(t: FreshTally): string {
  return [...t.byClass]
    .map(([name, c]) => `${name}: deny ${c.deny} ask ${c.ask} allow ${c.allow}`)
    .join('; ');
}

function idLine(label: string, ids: readonly string[]): string[] {
  return ids.length === 0 ? [] : [`  ${label}: ${ids.join(' ')}`];
}

/** The report lines for the fresh dangerous corpus. */
export function describeFreshDangerous(t: FreshTally): string[] {
  const { allow, ask, deny } = t.counts;
  return [
    `fresh dangerous: ${t.total} lines: deny ${deny} / ask ${ask} / allow ${allow}`,
    `  never allowed: ${allow === 0 ? 'yes' : 'NO'}; the deny-labelled lines denied ${t.strict.met} of ${t.strict.total} (${pct(t.strict.met, t.strict.total)})`,
    `  ${classLines(t)}`,
    ...idLine('allowed (must never be)', t.misses),
    ...idLine('deny-labelled that asked', t.shortfalls),
  ];
}

/** The report lines for the fresh benign corpus. */
export function describeFreshBenign(t: FreshTally): string[] {
  const { allow, ask, deny } = t.counts;
  return [
    `fresh benign: ${t.total} lines: deny ${deny} / ask ${ask} / allow ${allow}`,
    `  denied ${pct(deny, t.total)} (target <= 2%), asked ${pct(ask, t.total)}; the allow-labelled lines run without a card ${t.strict.met} of ${t.strict.total}`,
    `  ${classLines(t)}`,
    ...idLine('denied (must not be)', t.misses),
    ...idLine('allow-labelled that asked', t.shortfalls),
  ];
}
