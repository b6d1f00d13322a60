// A Telegram daemon for tests: the real app (offline model, real pipeline, stores on disk)
// behind the real grammY adapter, pointed at the emulator. Stop it and start another over
// the same dirs to simulate a restart.
import { join } from 'node:path';
import { pino } from 'pino';
import { createTelegramAdapter } from '../../../channels/telegram/telegram-adapter.ts';
import { createApp, type App } from '../../../runtime/app.ts';
import { parseConfig, type ConfigInput } from '../../../runtime/config.ts';
import type { LlmClient } from '../../../runtime/llm/client.ts';
import { createOfflineClient } from '../../../runtime/llm/offline.ts';
import type { Emulator } from './emulator.ts';

export interface TestDaemon {
  readonly app: App;
  /** How many times the model was asked anything. */
  modelCalls(): number;
  /** The person's text the model got in each request that ended on a person's message. */
  modelTexts(): string[];
  /** Operator log lines (pino JSON), e.g. the pairing code. */
  readonly logLines: Record<string, unknown>[];
  stop(): Promise<void>;
}

/** The offline model, counting its calls (the count proves what never reached it). */
export function countingClient(): {
  client: LlmClient;
  calls: () => number;
  texts: () => string[];
} {
  const inner = createOfflineClient();
  let calls = 0;
  const texts: string[] = [];
  return {
    client: {
      provider: inner.provider,
      model: inner.model,
      chat: (request) => {
        calls += 1;
        const last = request.messages.at(-1);
        if (last?.role === 'user') texts.push(last.content);
        return inner.chat(request);
      },
    },
    calls: () => calls,
    texts: () => [...texts],
  };
}

/** An env whose state and data dirs live under `root` (so a restart finds the same files). */
export function daemonEnv(root: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    XDG_STATE_HOME: join(root, 'state'),
    XDG_DATA_HOME: join(root, 'data'),
    ...extra,
  };
}

export async function startTestDaemon(
  emulator: Emulator,
  root: string,
  extra: {
    config?: ConfigInput;
    allowed?: number[];
    groupReplies?: 'mention' | 'all';
    /** Where the bot reaches the Bot API (default: the emulator itself). */
    apiRoot?: string;
    webhook?: { url: string; port: number; secret: string };
  } = {},
): Promise<TestDaemon> {
  const config = parseConfig({
    ...extra.config,
    sandbox: { mode: 'off' },
    channels: {
      ...extra.config?.channels,
      telegram: {
        ...extra.config?.channels?.telegram,
        enabled: true,
        api_root: extra.apiRoot ?? emulator.apiRoot,
        allowed_users: extra.allowed ?? [1, 2],
        ...(extra.groupReplies === undefined ? {} : { group_replies: extra.groupReplies }),
        ...(extra.webhook === undefined
          ? {}
          : { webhook: { url: extra.webhook.url, port: extra.webhook.port } }),
      },
    },
  });
  const logLines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  const env = daemonEnv(root, { TELEGRAM_BOT_TOKEN: emulator.token });
  const { client, calls, texts } = countingClient();
  const app = await createApp({ config, env, logger, client });
  const adapter = createTelegramAdapter({
    ...(extra.webhook === undefined ? {} : { webhookSecret: extra.webhook.secret }),
    config,
    env,
    logger,
    health: app.health,
  });
  await adapter.start(app.service);
  return {
    app,
    modelCalls: calls,
    modelTexts: texts,
    logLines,
    async stop() {
      await adapter.stop();
      await app.close();
    },
  };
}
