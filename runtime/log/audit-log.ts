// The audit log: one JSONL line per decision under $XDG_DATA_HOME/custode/vaglio/YYYY-MM.jsonl.
// It holds keys, never argument values. A write that fails says why (its caller decides
// whether the call may still run: by default it may not), is reported through pino once
// per run of failures, and never leaves half a line behind.
import { closeSync, fstatSync, ftruncateSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { dataDir, monthKey } from '../paths.ts';
import { describeWriteFailure } from '../state-store.ts';
import type { Logger } from './logger.ts';

/** Where a decision was asked for. */
const AUDIT_ORIGINS = ['assistant', 'check', 'hook:claude-code', 'hook:codex'] as const;
export type AuditOrigin = (typeof AUDIT_ORIGINS)[number];

/** The schemas of a line; only `custode log` and the tests read lines back. */
function buildAuditSchemas() {
  const judgeRecordSchema = z.strictObject({
    name: z.string(),
    kind: z.string(),
    approved: z.boolean(),
    score: z.number(),
    confidence: z.number(),
    failure: z.string().optional(),
  });

  const verdictSchema = z.strictObject({
    approved: z.boolean(),
    reason: z.string(),
    ts: z.string(),
    judge_kind: z.string(),
    score: z.number().min(0).max(1),
    confidence: z.number().min(0).max(1),
    blocked_by: z.enum(['guard', 'judge']).nullable(),
    signals: z.array(z.string()).readonly(),
    judges: z.array(judgeRecordSchema).readonly().optional(),
    strategy: z.string().optional(),
  });

  /** A decision line. Strict: a field that could carry an argument value (args, result...) fails. */
  const auditDecisionSchema = z.strictObject({
    v: z.literal(1),
    event: z.literal('decision'),
    ts: z.string(),
    intent: z.string(),
    executor: z.string(),
    args_keys: z.array(z.string()).readonly(),
    context_keys: z.array(z.string()).readonly(),
    stage: z.enum(['validation', 'scope', 'guard', 'judge', 'audit']).nullable(),
    decision: z.enum(['allow', 'ask', 'deny']),
    verdict: verdictSchema,
    /** Who asked: the assistant's own planner (absent on older lines), `custode check`, or a hook. */
    origin: z.enum(AUDIT_ORIGINS).optional(),
    /** The uncarded tier and catalogue rule that allowed the call without a card, e.g. "read-only: ls". */
    tier: z
      .string()
      .regex(/^(read-only|workspace): /)
      .optional(),
  });

  /** A card resolution: who decided what about which executor. */
  const auditApprovalSchema = z.strictObject({
    v: z.literal(1),
    event: z.literal('approval'),
    ts: z.string(),
    approval_id: z.string(),
    executor: z.string(),
    args_keys: z.array(z.string()).readonly(),
    channel: z.string(),
    sender: z.string(),
    decided_by: z.string(),
    answer: z.enum(['once', 'always', 'deny', 'expired']),
  });

  return {
    decision: auditDecisionSchema,
    record: z.discriminatedUnion('event', [auditDecisionSchema, auditApprovalSchema]),
  };
}

let built: ReturnType<typeof buildAuditSchemas> | undefined;

/** Built on first use (z.lazy): a decision writes lines without reading any back. */
export const auditDecisionSchema = z.lazy(() => (built ??= buildAuditSchemas()).decision);
export const auditRecordSchema = z.lazy(() => (built ??= buildAuditSchemas()).record);
export type AuditRecord = z.infer<typeof auditRecordSchema>;

/** Whether a line reached the log; when not, `problem` says why in words a person can act on. */
export type AuditWrite = { readonly ok: true } | { readonly ok: false; readonly problem: string };

export interface AuditLog {
  /** Writes the whole line or nothing; never throws. */
  append(record: AuditRecord): AuditWrite;
  /** The file the current month's lines go to. */
  currentFile(): string;
  close(): void;
}

/** Top-level keys of an args object, sorted; [] for anything else. Never the values. */
export function keysOf(value: unknown): string[] {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? Object.keys(value).sort()
    : [];
}

/**
 * Writes all of `text` at the end of `fd` (opened to append); on failure the part written is cut
 * back, so no torn line stays. The size is read only then: the daemon and every hook append to
 * the same file, so the end is where the kernel put this line's bytes, never a size kept here.
 */
function appendWhole(fd: number, text: string): void {
  const bytes = Buffer.from(text);
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
  } catch (error) {
    try {
      if (done > 0) ftruncateSync(fd, fstatSync(fd).size - done);
    } catch {
      // Nothing more can be done here; readers skip a line that does not parse.
    }
    throw error;
  }
}

/**
 * The monthly audit log. Lines are written synchronously on a kept-open descriptor, so a
 * decision's line is on disk (or known lost) before the executor runs.
 */
export function createAuditLog(
  options: { env?: NodeJS.ProcessEnv; logger?: Logger; dir?: string } = {},
): AuditLog {
  const dir = options.dir ?? join(dataDir(options.env), 'vaglio');
  let fd: number | null = null;
  let openMonth = '';
  let failing = false;

  function descriptor(): number {
    const month = monthKey();
    if (fd === null || month !== openMonth) {
      if (fd !== null) closeSync(fd);
      fd = null;
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      fd = openSync(join(dir, `${month}.jsonl`), 'a', 0o600);
      openMonth = month;
    }
    return fd;
  }

  return {
    append(record) {
      try {
        appendWhole(descriptor(), `${JSON.stringify(record)}\n`);
      } catch (error) {
        const problem = describeWriteFailure(error, dir);
        if (!failing)
          options.logger?.error({ err: error, dir }, `audit log write failed: ${problem}`);
        failing = true;
        return { ok: false, problem };
      }
      if (failing) options.logger?.warn({ dir }, 'audit log writes again');
      failing = false;
      return { ok: true };
    },
    currentFile: () => join(dir, `${monthKey()}.jsonl`),
    close() {
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}
