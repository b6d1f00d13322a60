// The terminal as a daemon channel: the daemon's own stdin/stdout become a chat.
import { userInfo } from 'node:os';
import type { ChannelAdapter } from '../adapter.ts';
import { runTerminalChat } from './terminal-chat.ts';

export interface LocalAdapterOptions {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
  readonly tty: boolean;
  readonly env: NodeJS.ProcessEnv;
}

/** The local sender id: the OS user, channel-qualified. */
export function localSender(env: NodeJS.ProcessEnv): string {
  return `local:${env.USER ?? userInfo().username}`;
}

/** The local channel adapter; `done` resolves when its input ends. */
export function createLocalAdapter(options: LocalAdapterOptions): ChannelAdapter {
  const stopping = new AbortController();
  let finished: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finished = resolve;
  });
  return {
    name: 'local',
    done,
    start(service) {
      void runTerminalChat(service, {
        input: options.input,
        output: options.output,
        tty: options.tty,
        signal: stopping.signal,
        sender: localSender(options.env),
      }).finally(finished);
      return Promise.resolve();
    },
    stop() {
      stopping.abort();
      finished();
      return Promise.resolve();
    },
  };
}
