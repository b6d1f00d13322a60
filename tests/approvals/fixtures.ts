// Records shared by the approval tests: a pending approval as the chat service writes one.
import type { ApprovalCard } from '../../runtime/approvals/card.ts';
import { newApprovalId } from '../../runtime/approvals/store.ts';
import type { PendingApproval } from '../../runtime/approvals/types.ts';

export const sampleCard: ApprovalCard = {
  kind: 'approval',
  headline: 'Write ~/notes.txt',
  verb: 'Write',
  target: '~/notes.txt',
  reversible: false,
  executorClass: 'files',
  executor: 'fs_write',
  detail: '{"path":"~/notes.txt","content":"hello"}',
  score: 0.8,
  reason: 'critical: fs_write asks',
};

/** A pending approval for telegram:42, expiring `minutes` from `now`. */
export function samplePending(
  options: { minutes?: number; now?: Date; sender?: string } = {},
): PendingApproval {
  const now = options.now ?? new Date();
  return {
    v: 1,
    id: newApprovalId(),
    channel: 'telegram',
    chatId: '42',
    sender: options.sender ?? 'telegram:42',
    call: {
      executor: 'fs_write',
      args: { path: '~/notes.txt', content: 'hello' },
      intent: 'write notes',
      sender: 'telegram:42',
    },
    card: sampleCard,
    turnState: { messages: [{ role: 'user', content: 'write notes' }], step: 1 },
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + (options.minutes ?? 10) * 60_000).toISOString(),
  };
}
