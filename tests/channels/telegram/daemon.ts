// A Telegram daemon for tests: the real chat stack (offline model, real pipeline, stores
// on disk) behind the real grammY adapter, pointed at the emulator. Stop it and start
// another over the same state dir to simulate a restart.
import { join } from 'node:path';
import { pino } from 'pino';
import { createTelegramAdapter } from '../../../channels/telegram/telegram-adapter.ts';
import { createChatStack, type ChatStack } from '../../../runtime/bench/chat-stack.ts';
import { parseConfig, type ConfigInput } from '../../../runtime/config.ts';
import type { LlmClient } from '../../../runtime/llm/client.ts';
import { createOfflineClient } from '../../../runtime/llm/offline.ts';
import type { Emulator } from './emulator.ts';

export interface TestDaemon {
  readonly stack: ChatStack;
  /** How many times the model was asked anything. */
  modelCalls(): number;
  /** Operator log lines (pino JSON), e.g. the pairing code. */
  readonly logLines: Record<string, unknown>[];
  stop(): Promise<void>;
}

/** The offline model, counting its calls (the count proves what never reached it). */
function countingClient(): { client: LlmClient; calls: () => number } {
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

export async function startTestDaemon(
  emulator: Emulator,
  stateDir: string,
  extra: { config?: ConfigInput; allowed?: number[] } = {},
): Promise<TestDaemon> {
  const config = parseConfig({
    ...extra.config,
    sandbox: { mode: 'off' },
    channels: {
      telegram: {
        enabled: true,
        api_root: emulator.apiRoot,
        allowed_users: extra.allowed ?? [1, 2],
      },
    },
  });
  const logLines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  const env = { ...process.env, TELEGRAM_BOT_TOKEN: emulator.token };
  const { client, calls } = countingClient();
  const stack = await createChatStack({
    config,
    env,
    stateDir,
    client,
    logger,
    auditDir: join(stateDir, 'audit'),
  });
  const adapter = createTelegramAdapter({
    config,
    env,
    logger,
    stateDir,
    approvals: stack.approvals,
    audit: stack.audit,
  });
  await adapter.start(stack.service);
  return {
    stack,
    modelCalls: calls,
    logLines,
    async stop() {
      await adapter.stop();
      await stack.stop();
    },
  };
}
