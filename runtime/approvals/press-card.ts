// What the channels need from the chat service: two entries, so a channel never depends on
// the planner's internals. Also the press bookkeeping every channel shares: the audit line
// saying who decided what.
import { auditResolution } from './audit-resolution.ts';
import type { PressResult } from './render.ts';
import type { ApprovalAnswer, PendingApproval } from './types.ts';
import type { AuditLog } from '../log/audit-log.ts';
import type { ChannelSink, ChatService } from '../planner/chat-service.ts';

export type { ChannelSink } from '../planner/chat-service.ts';

/** The chat service as a channel sees it. */
export type ChatPort = Pick<ChatService, 'handleMessage' | 'resolveApproval' | 'attach'>;

/** Read access to a pending card before it is pressed (for the audit line). */
export interface PendingLookup {
  peek(id: string): Promise<PendingApproval | null>;
}

/** Resolve a press through the service and write the audit line when it decided something. */
export async function pressCard(
  deps: { service: ChatPort; approvals: PendingLookup; audit: AuditLog },
  press: { approvalId: string; presser: string; answer: ApprovalAnswer },
  sink: ChannelSink,
): Promise<PressResult> {
  const pending = await deps.approvals.peek(press.approvalId);
  const result = await deps.service.resolveApproval(press, sink);
  if (pending !== null && result === 'resolved')
    auditResolution(deps.audit, pending, press.presser, press.answer);
  if (pending !== null && result === 'expired')
    auditResolution(deps.audit, pending, 'expiry', 'expired');
  return result;
}
