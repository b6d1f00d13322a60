// Every card resolution goes to the audit log: which executor, which arg keys, who asked,
// who decided and what. Keys, never values.
import { keysOf, type AuditLog, type AuditRecord } from '../log/audit-log.ts';
import type { Resolution } from './render.ts';
import type { PendingApproval } from './types.ts';

/** The audit line for a resolved card (decided_by "expiry" when nobody answered in time). */
export function approvalAuditRecord(
  pending: PendingApproval,
  decidedBy: string,
  answer: Resolution,
  now = new Date(),
): AuditRecord {
  return {
    v: 1,
    event: 'approval',
    ts: now.toISOString(),
    approval_id: pending.id,
    executor: pending.call.executor,
    args_keys: keysOf(pending.call.args),
    channel: pending.channel,
    sender: pending.sender,
    decided_by: decidedBy,
    answer,
  };
}

/** Append the resolution; the audit log itself never throws (a failed write is logged once). */
export function auditResolution(
  audit: AuditLog,
  pending: PendingApproval,
  decidedBy: string,
  answer: Resolution,
): void {
  audit.append(approvalAuditRecord(pending, decidedBy, answer));
}
