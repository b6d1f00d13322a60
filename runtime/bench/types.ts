// One section of `npm run bench`: a title and the figures it measured, already formatted.
export interface BenchSection {
  readonly title: string;
  readonly lines: readonly string[];
}

/** Median of a list of numbers (copied and sorted). */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0..100). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}
