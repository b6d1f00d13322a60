// What the daemon needs from a channel: start it against the chat service, stop it.
import type { ChatService } from '../runtime/planner/chat-service.ts';

export interface ChannelAdapter {
  readonly name: string;
  /** Connects and starts receiving; resolves once the channel is running. */
  start(service: ChatService): Promise<void>;
  /** Stops receiving and lets in-flight sends finish. */
  stop(): Promise<void>;
  /** Resolves when the channel ended on its own (the terminal's stdin closed); absent if it never does. */
  readonly done?: Promise<void>;
}
