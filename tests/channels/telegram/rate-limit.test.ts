// Telegram's flood control loses nothing: a proxy in front of the emulator answers the first
// sendMessage (or editMessageText) with 429 retry_after 1, and the bot's answer still arrives,
// once, sent again only after the wait Telegram asked for.
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startLongPollProxy } from '../../../runtime/bench/long-poll-proxy.ts';
import { startTestDaemon } from './daemon.ts';
import { buttonData, buttons, startEmulator, type Emulator } from './emulator.ts';

const RETRY_AFTER_S = 1;
const TOO_MANY = JSON.stringify({
  ok: false,
  error_code: 429,
  description: `Too Many Requests: retry after ${String(RETRY_AFTER_S)}`,
  parameters: { retry_after: RETRY_AFTER_S },
});
/** Node's timers count whole milliseconds from a cached loop time, so a wait may end ~1 ms early. */
const WAITED_MS = RETRY_AFTER_S * 1000 - 5;

interface Seen {
  readonly method: string;
  readonly body: string;
  /** performance.now() when the request reached the proxy. */
  readonly at: number;
  readonly limited: boolean;
}

const cleanup: (() => Promise<void>)[] = [];
let emulator: Emulator;
let seen: Seen[];

beforeEach(async () => {
  emulator = await startEmulator();
  cleanup.push(() => emulator.stop());
  seen = [];
});
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** A daemon behind a proxy that rate-limits the first `times` calls to `limited`, recording every call. */
async function daemonLimiting(limited: string, times = 1): Promise<void> {
  const proxy = await startLongPollProxy(emulator.server, {
    hook: (method, body) => {
      const limit = method === limited && seen.filter((call) => call.limited).length < times;
      seen.push({ method, body, at: performance.now(), limited: limit });
      return limit ? { status: 429, text: TOO_MANY } : undefined;
    },
  });
  cleanup.push(() => proxy.close());
  const root = await mkdtemp(join(process.env.HOME ?? '', 'rate-'));
  const daemon = await startTestDaemon({ ...emulator, apiRoot: proxy.url }, root);
  cleanup.push(() => daemon.stop());
}

/** The rate-limited call and the calls to the same method after it, with the same body. */
function retriedCall(method: string): { limited: Seen; retries: Seen[] } {
  const calls = seen.filter((call) => call.method === method);
  const limited = calls.find((call) => call.limited);
  if (limited === undefined) throw new Error(`the proxy never rate-limited ${method}`);
  return {
    limited,
    retries: calls.filter((call) => !call.limited && call.body === limited.body),
  };
}

type BotMessage = ReturnType<Emulator['botMessages']>[number];
const hasButtons = (m: BotMessage): boolean => buttons(m).length > 0;

describe('Telegram under flood control (429 retry_after)', () => {
  it('sends a rate-limited answer again after retry_after, exactly once', async () => {
    await daemonLimiting('sendMessage');
    const user = emulator.client(1);
    await user.sendMessage(user.makeMessage('/help'));
    const [answer] = await emulator.waitForBot(1, (ms) => ms.length > 0);
    expect(answer?.text).toContain('/help');

    const { limited, retries } = retriedCall('sendMessage');
    expect(retries).toHaveLength(1);
    const retry = retries[0];
    expect(retry !== undefined && seen.indexOf(retry) > seen.indexOf(limited)).toBe(true);
    expect((retry?.at ?? 0) - limited.at).toBeGreaterThanOrEqual(WAITED_MS);
    expect(JSON.parse(limited.body)).toMatchObject({ chat_id: '1', text: answer?.text });

    // A second turn is the barrier: once its answer is in, a duplicate of the first would be too.
    await user.sendMessage(user.makeMessage('/help'));
    const messages = await emulator.waitForBot(1, (ms) => ms.length >= 2);
    expect(messages).toHaveLength(2);
    expect(seen.filter((call) => call.method === 'sendMessage')).toHaveLength(3);
  });

  it('edits a decided card after a rate-limited editMessageText, and the turn still answers', async () => {
    await daemonLimiting('editMessageText');
    const user = emulator.client(1);
    await user.sendMessage(user.makeMessage('/write ~/limited.txt hello'));
    const card = (await emulator.waitForBot(1, (ms) => ms.some(hasButtons))).find(hasButtons);
    await user.sendCallback(user.makeCallbackQuery(buttonData(card, 'Allow once')));

    const after = await emulator.waitForBot(
      1,
      (ms) => ms.some((m) => m.text.includes('Allowed once by telegram:1')) && ms.length >= 2,
    );
    expect(after.some(hasButtons)).toBe(false);
    const { limited, retries } = retriedCall('editMessageText');
    expect(retries).toHaveLength(1);
    expect((retries[0]?.at ?? 0) - limited.at).toBeGreaterThanOrEqual(WAITED_MS);
    expect(seen.filter((call) => call.method === 'editMessageText')).toHaveLength(2);
  });

  it('delivers an answer through ten 429s in a row (a storm), once, never sooner than told', async () => {
    await daemonLimiting('sendMessage', 10);
    const user = emulator.client(1);
    await user.sendMessage(user.makeMessage('/help'));
    const [answer] = await emulator.waitForBot(1, (ms) => ms.length > 0);
    expect(answer?.text).toContain('/help');

    const sends = seen.filter((call) => call.method === 'sendMessage');
    expect(sends.map((call) => call.limited)).toEqual([...Array<boolean>(10).fill(true), false]);
    expect(new Set(sends.map((call) => call.body)).size).toBe(1);
    for (let i = 1; i < sends.length; i += 1)
      expect((sends[i]?.at ?? 0) - (sends[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(WAITED_MS);
    expect(emulator.botMessages(1)).toHaveLength(1);
  }, 40_000);
});
