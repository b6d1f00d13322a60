// The turn log: what each turn did, step by step, as JSONL under
// $XDG_STATE_HOME/custode/turns/YYYY-MM.jsonl (`v: 1`). Unlike the audit log it may hold
// argument values, so it stays in the private state dir and is pruned by age.
import { mkdir, readFile, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { appendWhole, safeJson, writeFileAtomic } from '../state-store.ts';
import type { Config } from '../config.ts';
import { monthKey, stateDir } from '../paths.ts';
import type { EventSink, PlannerEvent } from '../planner/events.ts';
import type { Logger } from './logger.ts';

const ref = {
  v: z.literal(1),
  ts: z.iso.datetime(),
  turn_id: z.string(),
  channel: z.string(),
  chat_id: z.string(),
};

/** One line of the turn log. */
export const turnRecordSchema = z.discriminatedUnion('type', [
  z.object({
    ...ref,
    type: z.literal('turn_started'),
    sender: z.string(),
    intent: z.string(),
    mode: z.enum(['multistep', 'single-shot']),
  }),
  z.object({
    ...ref,
    type: z.literal('step'),
    step: z.number().int().nonnegative(),
    executor: z.string(),
    args: z.unknown(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    scope_violation: z.string().optional(),
    verdict: z
      .object({ approved: z.boolean(), reason: z.string(), score: z.number() })
      .loose()
      .optional(),
    decision: z.enum(['allow', 'ask', 'deny', 'error', 'declined']),
    reason: z.string(),
    duration_ms: z.number().nonnegative(),
    observation_bytes: z.number().int().nonnegative(),
  }),
  z.object({
    ...ref,
    type: z.literal('turn_resumed'),
    answer: z.enum(['once', 'always', 'deny', 'expired']),
    by: z.string(),
    executor: z.string(),
    args: z.unknown(),
  }),
  z.object({
    ...ref,
    type: z.literal('turn_ended'),
    outcome: z.enum(['answered', 'stopped', 'failed', 'cancelled', 'waiting']),
    steps: z.number().int().nonnegative(),
    reason: z.string().optional(),
  }),
]);
export type TurnRecord = z.infer<typeof turnRecordSchema>;

export interface TurnLog {
  /** The planner event sink that appends each turn event as one line. */
  readonly sink: EventSink;
  /** Resolves once every line recorded so far is written. */
  flush(): Promise<void>;
}

/** Where the monthly turn files live. */
export function turnLogDir(env: NodeJS.ProcessEnv): string {
  return join(stateDir(env), 'turns');
}

const monthFile = /^(\d{4}-\d{2})\.jsonl$/;

/** Deletes months wholly older than the retention and drops older lines from the boundary month. */
export async function pruneTurnLogs(
  dir: string,
  retentionDays: number,
  now: Date = new Date(),
): Promise<void> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  const cutoffMonth = monthKey(cutoff);
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const month = monthFile.exec(name)?.[1];
    if (month === undefined || month > cutoffMonth) continue;
    const file = join(dir, name);
    if (month < cutoffMonth) {
      await unlink(file);
      continue;
    }
    const lines = (await readFile(file, 'utf8')).split('\n').filter((line) => line !== '');
    const kept = lines.filter((line) => {
      const parsed = turnRecordSchema.safeParse(safeJson(line));
      return parsed.success && new Date(parsed.data.ts) >= cutoff;
    });
    if (kept.length !== lines.length)
      await writeFileAtomic(file, kept.map((line) => `${line}\n`).join(''));
  }
}

/** The turn log for this config; old lines are pruned first (retention config.logs.turn_retention_days). */
export function createTurnLog(options: {
  config: Config;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  now?: () => Date;
}): TurnLog {
  const dir = turnLogDir(options.env);
  const now = options.now ?? (() => new Date());
  // One chain keeps lines in event order and lets flush() wait for all of them.
  let chain: Promise<void> = mkdir(dir, { recursive: true, mode: 0o700 })
    .then(() => pruneTurnLogs(dir, options.config.logs.turn_retention_days, now()))
    .catch((error: unknown) => options.logger.warn({ err: error }, 'turn log: pruning failed'));
  // Lines wait here while a write is in flight, then go out in one append per month file.
  let queued: { month: string; line: string }[] = [];
  const writeQueued = async (): Promise<void> => {
    const batch = queued;
    queued = [];
    for (const month of new Set(batch.map((entry) => entry.month))) {
      const text = batch
        .filter((entry) => entry.month === month)
        .map((entry) => entry.line)
        .join('');
      await appendWhole(join(dir, `${month}.jsonl`), text);
    }
  };
  return {
    sink(event: PlannerEvent) {
      if (event.type === 'model_call' || event.type === 'refused') return;
      const at = now();
      queued.push({
        month: monthKey(at),
        line: `${JSON.stringify({ v: 1, ts: at.toISOString(), ...event })}\n`,
      });
      if (queued.length > 1) return;
      chain = chain
        .then(writeQueued)
        .catch((error: unknown) => options.logger.warn({ err: error }, 'turn log: write failed'));
    },
    flush: () => chain,
  };
}

/** Every valid record, oldest month first, and where lines that are not one were skipped. */
export async function readRecords(
  dir: string,
): Promise<{ records: TurnRecord[]; skipped: string[] }> {
  const names = (await readdir(dir).catch(() => [] as string[]))
    .filter((name) => monthFile.test(name))
    .sort();
  const records: TurnRecord[] = [];
  const skipped: string[] = [];
  for (const name of names) {
    const lines = (await readFile(join(dir, name), 'utf8')).split('\n');
    lines.forEach((line, index) => {
      if (line === '') return;
      const parsed = turnRecordSchema.safeParse(safeJson(line));
      if (parsed.success) records.push(parsed.data);
      else skipped.push(`${name}:${String(index + 1)}`);
    });
  }
  return { records, skipped };
}

function short(value: unknown, max = 100): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The last `n` turns, readable, for `custode log turns`. */
export async function formatRecentTurns(
  n: number,
  _config: Config,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const { records, skipped } = await readRecords(turnLogDir(env));
  // A torn or damaged line is told, never silently dropped.
  const warning =
    skipped.length === 0
      ? ''
      : `(${String(skipped.length)} unreadable line(s) skipped: ${skipped.slice(0, 5).join(', ')}${skipped.length > 5 ? ', …' : ''})\n`;
  const turns = new Map<string, TurnRecord[]>();
  for (const record of records)
    turns.set(record.turn_id, [...(turns.get(record.turn_id) ?? []), record]);
  const recent = [...turns.values()].filter((lines) => lines[0]?.type === 'turn_started').slice(-n);
  if (recent.length === 0) return `${warning}No turns recorded yet (${turnLogDir(env)}).\n`;
  const out: string[] = [];
  for (const lines of recent) {
    for (const record of lines) {
      switch (record.type) {
        case 'turn_started':
          out.push(
            `${record.ts} ${record.channel}:${record.chat_id} ${record.sender} [${record.mode}] "${short(record.intent, 80)}"`,
          );
          break;
        case 'step':
          out.push(
            `  step ${String(record.step)} ${record.executor} ${short(record.args)} -> ${record.decision}${record.reason ? `: ${short(record.reason, 120)}` : ''} (${String(record.duration_ms)} ms)`,
          );
          break;
        case 'turn_resumed':
          out.push(
            `  resumed: ${record.answer} by ${record.by} (${record.executor} ${short(record.args)})`,
          );
          break;
        case 'turn_ended':
          out.push(
            `  ${record.outcome} after ${String(record.steps)} model call(s)${record.reason ? `: ${short(record.reason, 120)}` : ''}`,
          );
          break;
      }
    }
  }
  return `${warning}${out.join('\n')}\n`;
}
