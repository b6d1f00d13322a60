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
  /** Operator log lines (pino JSON), e.g. the pairing code. */
  readonly logLines: Record<string, unknown>[];
  stop(): Promise<void>;
}

/** The offline model, counting its calls (the count proves what never reached it). */
export function countingClient(): { client: LlmClient; calls: () => number } {
  const inner = createOfflineClient();
  let calls = 0;
  return {
    client: {
      provider: inner.provider,
      model: inner.model,
      chat: (request) => ((calls += 1), inner.chat(request)),
    },
    calls: () => calls,
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
    webhook?: { url: string; port: number; secret: string };
  } = {},
): Promise<TestDaemon> {
  const config = parseConfig({
    ...extra.config,
    sandbox: { mode: 'off' },
    channels: {
      telegram: {
        enabled: true,
        api_root: emulator.apiRoot,
        allowed_users: extra.allowed ?? [1, 2],
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
  const { client, calls } = countingClient();
  const app = await createApp({ config, env, logger, client });
  const adapter = createTelegramAdapter({
    ...(extra.webhook === undefined ? {} : { webhookSecret: extra.webhook.secret }),
    config,
    env,
    logger,
  });
  await adapter.start(app.service);
  return {
    app,
    modelCalls: calls,
    logLines,
    async stop() {
      await adapter.stop();
      await app.close();
    },
  };
}
