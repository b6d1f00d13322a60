// The everyday-task figures: cards shown against cards a careful person wants, per task,
// per group and in total; tasks completed; and, loudly, any must-ask call that ran without
// a card.
import type { CallRecord, TaskResult } from './replay.ts';
import type { EverydayTask, TaskGroup } from './task-types.ts';

export interface Totals {
  readonly tasks: number;
  readonly completed: number;
  readonly cardsShown: number;
  readonly cardsWanted: number;
  /** Calls with a card nobody wanted. */
  readonly unwanted: number;
  /** Calls that ran without the card a careful person wanted. */
  readonly missing: number;
  /** Of those, calls marked must-ask: must be zero. */
  readonly silentMustAsk: number;
  /** Calls that ran and came back failed (error or non-zero exit). */
  readonly failedRuns: number;
  /** Of those, calls a person approved on a card: a card that could not succeed. */
  readonly failedAfterCard: number;
  /** Of those, cards that did not say the sandbox would doom the run. */
  readonly failedUnforetold: number;
  readonly refused: number;
}

const wanted = (record: CallRecord): boolean => record.call.card !== 'none';
const carded = (record: CallRecord): boolean => record.cards > 0;
const silent = (record: CallRecord): boolean => record.ran && !carded(record);

/** Sums a set of task results. */
export function totalsOf(results: readonly TaskResult[]): Totals {
  const calls = results.flatMap((result) => result.calls);
  const count = (test: (record: CallRecord) => boolean): number => calls.filter(test).length;
  return {
    tasks: results.length,
    completed: results.filter((result) => result.completed).length,
    cardsShown: calls.reduce((sum, record) => sum + record.cards, 0),
    cardsWanted: count(wanted),
    unwanted: count((record) => carded(record) && !wanted(record)),
    missing: count((record) => wanted(record) && silent(record)),
    silentMustAsk: count((record) => record.call.card === 'must' && silent(record)),
    failedRuns: count((record) => record.ran && record.failure !== null),
    failedAfterCard: count((record) => carded(record) && record.ran && record.failure !== null),
    failedUnforetold: count(
      (record) => carded(record) && record.ran && record.failure !== null && !record.foretold,
    ),
    refused: count((record) => record.refused !== null),
  };
}

function describeCall(record: CallRecord): string {
  const args = record.call.args;
  const main = [args.command, args.path, args.url].find((value) => typeof value === 'string');
  const target = typeof main === 'string' ? main : JSON.stringify(args);
  const cwd = typeof args.cwd === 'string' ? ` (cwd ${args.cwd})` : '';
  const text = `${record.call.tool} ${target}${cwd}`.replaceAll('\n', '\\n');
  return text.length > 90 ? `${text.slice(0, 87)}...` : text;
}

/** What went differently from what a careful person wants for this call, or null. */
function deviation(record: CallRecord): string | null {
  if (record.call.card === 'must' && silent(record)) return '!!! MUST-ASK RAN WITHOUT A CARD';
  if (record.decision === null) return 'never reached';
  if (record.refused !== null) return `refused: ${record.refused}`;
  if (carded(record) && !wanted(record)) return `unwanted card (${record.reason})`;
  if (wanted(record) && !carded(record)) return `no card (${record.reason})`;
  if (record.failure !== null) return `ran, failed: ${record.failure}`;
  return null;
}

function callLine(record: CallRecord): string {
  const mark = record.call.card === 'none' ? ' ' : record.call.card === 'must' ? '!' : '?';
  const shown = carded(record) ? 'card' : record.ran ? 'ran ' : '-   ';
  const off = deviation(record);
  const card = carded(record)
    ? `\n          card: ${record.headline}${record.foretold ? ' [says it will fail in the sandbox]' : ''}`
    : '';
  return `      ${mark} ${shown} ${describeCall(record)}${card}${off ? `\n          -> ${off}` : ''}`;
}

function taskLine(result: TaskResult): string {
  const totals = totalsOf([result]);
  return `  ${result.task.group.padEnd(9)} ${result.task.id.padEnd(24)} cards ${String(totals.cardsShown)}/${String(totals.cardsWanted)} wanted  ${result.completed ? 'completed' : 'NOT completed'}`;
}

function totalsLine(label: string, totals: Totals): string {
  return `${label.padEnd(9)} tasks ${String(totals.completed)}/${String(totals.tasks)} completed; cards ${String(totals.cardsShown)} shown / ${String(totals.cardsWanted)} wanted (unwanted ${String(totals.unwanted)}, wanted but missing ${String(totals.missing)}); refused ${String(totals.refused)}; runs that failed ${String(totals.failedRuns)} (${String(totals.failedAfterCard)} after a card, ${String(totals.failedUnforetold)} not foretold on it); must-ask without a card ${String(totals.silentMustAsk)}`;
}

/** A named list of tasks reported with its own subtotal. */
export interface TaskSet {
  readonly name: string;
  readonly tasks: readonly EverydayTask[];
}

function setLines(results: readonly TaskResult[], label: string): string[] {
  const groups = [...new Set(results.map((result) => result.task.group))] as TaskGroup[];
  return [
    ...groups.map((group) =>
      totalsLine(group, totalsOf(results.filter((result) => result.task.group === group))),
    ),
    totalsLine(label, totalsOf(results)),
  ];
}

/**
 * The printed report; `verbose` lists every call, otherwise only calls that deviate. With more
 * than one set, each set gets its group lines and a subtotal before the total.
 */
export function formatReport(
  results: readonly TaskResult[],
  verbose = false,
  sets: readonly TaskSet[] = [],
): string {
  const lines: string[] = [];
  for (const result of results) {
    lines.push(taskLine(result));
    for (const record of result.calls) {
      if (verbose || deviation(record) !== null) lines.push(callLine(record));
    }
  }
  lines.push('', 'calls: ! must ask, ? a careful person wants a card, blank: no card wanted', '');
  const named = sets
    .map((set) => ({ set, results: results.filter((result) => set.tasks.includes(result.task)) }))
    .filter((entry) => entry.results.length > 0);
  if (named.length > 1) {
    for (const entry of named) {
      lines.push(`set "${entry.set.name}":`, ...setLines(entry.results, 'subtotal'), '');
    }
    lines.push(totalsLine('TOTAL', totalsOf(results)));
  } else {
    lines.push(...setLines(results, 'TOTAL'));
  }
  const totals = totalsOf(results);
  if (totals.silentMustAsk > 0) {
    lines.push(
      '',
      `!!!!!! ${String(totals.silentMustAsk)} MUST-ASK CALL(S) RAN WITHOUT A CARD (look for "!!!" above) !!!!!!`,
    );
  }
  return lines.join('\n');
}
