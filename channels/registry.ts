// The channels the daemon can start, by config name. Each entry loads and builds its adapter
// from the app only when the channel is enabled: a laptop daemon without Slack never loads
// Bolt and its HTTP stack (about 20 MB of memory).
import type { App } from '../runtime/app.ts';
import type { ChannelName } from '../runtime/approvals/types.ts';
import type { ChannelAdapter } from './adapter.ts';

/** What an adapter factory gets: the app and the daemon's own streams. */
export interface AdapterContext {
  readonly app: App;
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly tty: boolean;
}

/** What the remote channels share from the app: its config, env, logger and health record. */
function remoteOptions(app: App) {
  return { config: app.config, env: app.env, logger: app.logger, health: app.health };
}

type AdapterFactory = (context: AdapterContext) => Promise<ChannelAdapter>;

const factories: ReadonlyMap<ChannelName, AdapterFactory> = new Map<ChannelName, AdapterFactory>([
  [
    'local',
    async ({ app, stdin, stdout, tty }) =>
      (await import('./local/local-adapter.ts')).createLocalAdapter({
        input: stdin,
        output: stdout,
        tty,
        env: app.env,
      }),
  ],
  [
    'telegram',
    async ({ app }) =>
      (await import('./telegram/telegram-adapter.ts')).createTelegramAdapter(remoteOptions(app)),
  ],
  [
    'slack',
    async ({ app }) =>
      (await import('./slack/slack-adapter.ts')).createSlackAdapter(remoteOptions(app)),
  ],
]);

/** Names of the channels enabled in the config, in a stable order. */
export function enabledChannels(app: App): ChannelName[] {
  const channels = app.config.channels;
  return (['local', 'telegram', 'slack'] as const).filter((name) => channels[name].enabled);
}

/** Adapters for the enabled channels; an enabled channel without an adapter is reported by name. */
export async function createAdapters(context: AdapterContext): Promise<{
  adapters: ChannelAdapter[];
  missing: ChannelName[];
}> {
  const adapters: ChannelAdapter[] = [];
  const missing: ChannelName[] = [];
  for (const name of enabledChannels(context.app)) {
    const factory = factories.get(name);
    if (factory) adapters.push(await factory(context));
    else missing.push(name);
  }
  return { adapters, missing };
}
