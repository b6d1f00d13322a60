// What the channels need from the chat service, so a channel never depends on the planner's
// internals. A press goes to the service, which audits it (before anything it allows runs).
import type { ChatService } from '../planner/chat-service.ts';

export type { ChannelSink } from '../planner/chat-service.ts';

/** The chat service as a channel sees it. */
export type ChatPort = Pick<
  ChatService,
  'handleMessage' | 'resolveApproval' | 'decideApproval' | 'attach' | 'cardPosted' | 'cardWaiting'
>;
