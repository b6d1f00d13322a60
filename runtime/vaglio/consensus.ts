// How several judges' results become one decision. Pure functions over votes. A fail_closed
// judge that failed still votes (score 0, a reject), so a failure never quietly shrinks the
// panel; a degraded one abstains; the quorum counts only judges that answered.
import type { Config } from '../config.ts';

/** The strategies config vaglio.strategy offers. */
export type ConsensusStrategy = Config['vaglio']['strategy'];

/** One judge's result as the panel weighs it. */
export interface Vote {
  readonly name: string;
  readonly weight: number;
  readonly approved: boolean;
  readonly score: number;
  readonly confidence: number;
  /** Set when the judge failed under fail_closed: it votes reject with score 0. */
  readonly failure?: string;
  readonly minScore: number;
  readonly minConfidence: number;
}

/** The panel's combined answer. */
export interface ConsensusOutcome {
  readonly approved: boolean;
  readonly score: number;
  readonly confidence: number;
  readonly reason: string;
}

function clamp(value: number): number {
  return Math.min(1, Math.max(0, value));
}

function fixed(value: number): string {
  return value.toFixed(2);
}

function weightedMean(votes: readonly Vote[], pick: (vote: Vote) => number): number {
  const total = votes.reduce((sum, vote) => sum + vote.weight, 0);
  return votes.reduce((sum, vote) => sum + vote.weight * pick(vote), 0) / total;
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Score and confidence checked against the strictest judge's thresholds (fail closed). */
function thresholded(
  label: string,
  votes: readonly Vote[],
  score: number,
  confidence: number,
): ConsensusOutcome {
  const minScore = Math.max(...votes.map((vote) => vote.minScore));
  const minConfidence = Math.max(...votes.map((vote) => vote.minConfidence));
  const scoreOk = score >= minScore;
  const confidenceOk = confidence >= minConfidence;
  const parts = [
    `score ${fixed(score)} ${scoreOk ? '>=' : '<'} ${fixed(minScore)}`,
    `confidence ${fixed(confidence)} ${confidenceOk ? '>=' : '<'} ${fixed(minConfidence)}`,
  ];
  return {
    approved: scoreOk && confidenceOk,
    score,
    confidence,
    reason: `${label}: ${parts.join(', ')}`,
  };
}

function weightedAverage(votes: readonly Vote[]): ConsensusOutcome {
  const score = weightedMean(votes, (vote) => vote.score);
  const spread = Math.sqrt(weightedMean(votes, (vote) => (vote.score - score) ** 2));
  // Judges that disagree make the average less trustworthy than any of them claims.
  const confidence = clamp(weightedMean(votes, (vote) => vote.confidence) * (1 - 2 * spread));
  return thresholded(
    `weighted_average of ${votes.length} judges (spread ${fixed(spread)})`,
    votes,
    score,
    confidence,
  );
}

function majority(votes: readonly Vote[]): ConsensusOutcome {
  const yes = votes.filter((vote) => vote.approved).length;
  const approved = yes * 2 > votes.length;
  const agreeing = approved ? yes : votes.length - yes;
  return {
    approved,
    score: weightedMean(votes, (vote) => vote.score),
    confidence: agreeing / votes.length,
    reason: `majority: ${yes} of ${votes.length} judges approve${approved ? '' : ' (a strict majority is needed)'}`,
  };
}

function unanimous(votes: readonly Vote[]): ConsensusOutcome {
  const against = votes.filter((vote) => !vote.approved).map((vote) => vote.name);
  return {
    approved: against.length === 0,
    score: Math.min(...votes.map((vote) => vote.score)),
    confidence: Math.min(...votes.map((vote) => vote.confidence)),
    reason:
      against.length === 0
        ? `unanimous: all ${votes.length} judges approve`
        : `unanimous: ${against.length} of ${votes.length} judges reject (${against.join(', ')})`,
  };
}

function bestOfN(votes: readonly Vote[], n: number): ConsensusOutcome {
  const ranked = [...votes].sort((a, b) => b.score * b.confidence - a.score * a.confidence);
  const top = ranked.slice(0, Math.min(n, ranked.length));
  const label = `best_of_n: top ${top.length} of ${votes.length} (${top.map((vote) => vote.name).join(', ')})`;
  return thresholded(
    label,
    top,
    mean(top.map((vote) => vote.score)),
    mean(top.map((vote) => vote.confidence)),
  );
}

/** Combine every judge's vote with the strategy; an empty panel rejects. */
export function combineVotes(
  strategy: ConsensusStrategy,
  votes: readonly Vote[],
  options: { readonly bestOfN: number },
): ConsensusOutcome {
  if (votes.length === 0)
    return { approved: false, score: 0, confidence: 0, reason: `${strategy}: no judge voted` };
  const outcome =
    strategy === 'weighted_average'
      ? weightedAverage(votes)
      : strategy === 'majority'
        ? majority(votes)
        : strategy === 'unanimous'
          ? unanimous(votes)
          : bestOfN(votes, options.bestOfN);
  const failures = votes.filter((vote) => vote.failure !== undefined);
  if (failures.length === 0) return outcome;
  const named = failures.map((vote) => `${vote.name} ${vote.failure ?? ''}`).join('; ');
  return { ...outcome, reason: `${outcome.reason}; failed: ${named}` };
}

/**
 * The quorum check: a rejection reason when fewer judges answered (did not fail) than
 * `required`, else null. Failed judges count in the panel size, never as answers.
 */
export function quorumShortfall(answered: number, total: number, required: number): string | null {
  if (answered >= required) return null;
  return `only ${answered} of ${total} judges answered; min_judges_required is ${required}`;
}
