// The telegram-test-api emulator answers getUpdates at once, so a bot polls it in a busy
// loop that would swamp any CPU or latency figure. This proxy in front of it holds an empty
// getUpdates until a user update arrives (or up to a second), as Telegram's long polling
// does; every other call passes through unchanged, unless a test's hook answers it instead
// (a 429, say, to prove a rate-limited reply is retried and not lost).
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';

const userEvents = ['AddedUserMessage', 'AddedUserCommand', 'AddedUserCallbackQuery'] as const;

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Resolves when the emulator receives a user update, or after `ms`. */
function nextUpdate(emulator: TelegramServer, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      for (const event of userEvents) emulator.off(event, done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    for (const event of userEvents) emulator.once(event, done);
  });
}

/** An HTTP answer a hook sends in place of the emulator's: status and JSON text; `cut` closes the connection unanswered, as an unreachable API. */
export type ProxyAnswer = { readonly status: number; readonly text: string } | 'cut';

/** Sees each Bot API call (method, raw body) on arrival; an answer it returns is sent instead. */
export type ProxyHook = (method: string, body: string) => ProxyAnswer | undefined;

export interface LongPollProxyOptions {
  /** How long an empty getUpdates is held (default 1 s). */
  readonly maxWaitMs?: number;
  readonly hook?: ProxyHook;
}

/** A long-polling front for `emulator`; point the bot's api_root at the returned url. */
export async function startLongPollProxy(
  emulator: TelegramServer,
  { maxWaitMs = 1_000, hook }: LongPollProxyOptions = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const target = emulator.config.apiURL;
  const server = createServer((request, response) => {
    void (async () => {
      const body = await bodyOf(request);
      const method = (request.url ?? '').split('?')[0]?.split('/').at(-1) ?? '';
      const replaced = hook?.(method, body.toString('utf8'));
      if (replaced === 'cut') {
        request.socket.destroy();
        return;
      }
      if (replaced !== undefined) {
        response.writeHead(replaced.status, { 'content-type': 'application/json' });
        response.end(replaced.text);
        return;
      }
      const forward = async (): Promise<{ status: number; text: string }> => {
        const answer = await fetch(`${target}${request.url ?? '/'}`, {
          method: request.method ?? 'GET',
          headers: { 'content-type': request.headers['content-type'] ?? 'application/json' },
          ...(request.method === 'GET' || request.method === 'HEAD' ? {} : { body }),
        });
        return { status: answer.status, text: await answer.text() };
      };
      let answer = await forward();
      if (method === 'getUpdates') {
        const deadline = Date.now() + maxWaitMs;
        while (
          answer.status === 200 &&
          (JSON.parse(answer.text) as { result?: unknown[] }).result?.length === 0 &&
          Date.now() < deadline
        ) {
          await nextUpdate(emulator, deadline - Date.now());
          answer = await forward();
        }
      }
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(answer.text);
    })().catch(() => {
      response.writeHead(502).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no proxy address');
  return {
    url: `http://127.0.0.1:${String(address.port)}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
