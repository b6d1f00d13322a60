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

/** How a section states a target: plainly, in capitals. */
export function verdict(met: boolean): 'MET' | 'NOT MET' {
  return met ? 'MET' : 'NOT MET';
}

/**
 * Median wall time (ms) of each task, run round-robin (one of each per round, so load on the
 * machine weighs on all alike) for `runs` rounds after `warmUp` rounds that are not counted.
 */
export async function roundRobinMedians<K extends string>(
  tasks: Readonly<Record<K, () => Promise<unknown>>>,
  runs: number,
  warmUp: number,
): Promise<Record<K, number>> {
  const names = Object.keys(tasks) as K[];
  const times = new Map<K, number[]>(names.map((name) => [name, []]));
  for (let round = 0; round < warmUp + runs; round += 1) {
    for (const name of names) {
      const start = performance.now();
      await tasks[name]();
      if (round >= warmUp) times.get(name)?.push(performance.now() - start);
    }
  }
  return Object.fromEntries(names.map((name) => [name, median(times.get(name) ?? [])])) as Record<
    K,
    number
  >;
}
