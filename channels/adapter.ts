// What the daemon needs from a channel: start it against the chat service, stop it.
import type { Config } from '../runtime/config.ts';
import type { ChannelHealth } from '../runtime/health/channel-health.ts';
import type { Logger } from '../runtime/log/logger.ts';
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

/** What the remote channels (Telegram, Slack) are built from. */
export interface RemoteAdapterOptions {
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  readonly logger: Logger;
  /** Where channel state is kept (default: $XDG_STATE_HOME/custode). */
  readonly stateDir?: string;
  /** Where failures in a row are counted (doctor, /healthz); absent: only logged. */
  readonly health?: ChannelHealth;
}
