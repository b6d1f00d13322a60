// Every card resolution goes to the audit log (written by the chat service, before the call
// runs): which executor, which arg keys, who asked, who decided and what. Keys, never values.
import { keysOf, type AuditRecord } from '../log/audit-log.ts';
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
