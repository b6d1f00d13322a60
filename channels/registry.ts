// The channels the daemon can start, by config name. Each entry builds its adapter from
// the app; a channel is started only when enabled in the config.
import type { App } from '../runtime/app.ts';
import type { ChannelName } from '../runtime/approvals/types.ts';
import type { ChannelAdapter } from './adapter.ts';
import { createLocalAdapter } from './local/local-adapter.ts';
import { createSlackAdapter } from './slack/slack-adapter.ts';
import { createTelegramAdapter } from './telegram/telegram-adapter.ts';

/** What an adapter factory gets: the app and the daemon's own streams. */
export interface AdapterContext {
  readonly app: App;
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly tty: boolean;
}

/** What the remote channels share from the app: its config, logger, pending cards and audit log. */
function remoteOptions(app: App) {
  return {
    config: app.config,
    env: app.env,
    logger: app.logger,
    approvals: app.approvals,
    audit: app.audit,
  };
}

const factories: ReadonlyMap<ChannelName, (context: AdapterContext) => ChannelAdapter> = new Map<
  ChannelName,
  (context: AdapterContext) => ChannelAdapter
>([
  [
    'local',
    ({ app, stdin, stdout, tty }) =>
      createLocalAdapter({
        input: stdin,
        output: stdout,
        tty,
        env: app.env,
        approvals: app.approvals,
        audit: app.audit,
      }),
  ],
  ['telegram', ({ app }) => createTelegramAdapter(remoteOptions(app))],
  ['slack', ({ app }) => createSlackAdapter(remoteOptions(app))],
]);

/** Names of the channels enabled in the config, in a stable order. */
export function enabledChannels(app: App): ChannelName[] {
  const channels = app.config.channels;
  return (['local', 'telegram', 'slack'] as const).filter((name) => channels[name].enabled);
}

/** Adapters for the enabled channels; an enabled channel without an adapter is reported by name. */
export function createAdapters(context: AdapterContext): {
  adapters: ChannelAdapter[];
  missing: ChannelName[];
} {
  const adapters: ChannelAdapter[] = [];
  const missing: ChannelName[] = [];
  for (const name of enabledChannels(context.app)) {
    const factory = factories.get(name);
    if (factory) adapters.push(factory(context));
    else missing.push(name);
  }
  return { adapters, missing };
}
