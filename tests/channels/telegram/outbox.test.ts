// Nothing a chat is owed is lost while the Bot API is down: the real grammY adapter behind a
// proxy in front of the emulator that cuts or fails every send for a while. Answers and cards
// that fall due meanwhile are kept on disk, delivered in order once Telegram answers again
// (also by the next daemon after a restart), and what waited too long is given up and told.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startLongPollProxy, type ProxyAnswer } from '../../../runtime/bench/long-poll-proxy.ts';
import { startTestDaemon, type TestDaemon } from './daemon.ts';
import { buttonData, buttons, startEmulator, type Emulator } from './emulator.ts';

const BAD_GATEWAY = JSON.stringify({ ok: false, error_code: 502, description: 'Bad Gateway' });
const SENDS = new Set(['sendMessage', 'editMessageText']);

const cleanup: (() => Promise<void>)[] = [];
let emulator: Emulator;
let root: string;
/** How the proxy answers sends right now: passed through, or failed this way. */
let outage: ProxyAnswer | undefined;
let failedSends: string[];
let apiRoot: string;

beforeEach(async () => {
  emulator = await startEmulator();
  cleanup.push(() => emulator.stop());
  outage = undefined;
  failedSends = [];
  const proxy = await startLongPollProxy(emulator.server, {
    hook: (method, body) => {
      if (outage === undefined || !SENDS.has(method)) return undefined;
      failedSends.push(body);
      return outage;
    },
  });
  cleanup.push(() => proxy.close());
  apiRoot = proxy.url;
  root = await mkdtemp(join(process.env.HOME ?? '', 'outbox-'));
});
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function daemon(maxAgeMinutes?: number): Promise<TestDaemon> {
  const started = await startTestDaemon({ ...emulator, apiRoot }, root, {
    ...(maxAgeMinutes === undefined
      ? {}
      : { config: { channels: { outbox: { max_age_minutes: maxAgeMinutes } } } }),
  });
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await started.stop();
  };
  cleanup.push(stop);
  return { ...started, stop };
}

const outboxDir = (): string => join(root, 'state', 'custode', 'outbox', 'telegram');
async function savedEntries(): Promise<string[]> {
  return existsSync(outboxDir())
    ? (await readdir(outboxDir())).filter((n) => n.endsWith('.json'))
    : [];
}

/** Waits until `count` sends have failed and the outbox holds `saved` entries. */
async function untilKept(count: number, saved: number): Promise<void> {
  await vi.waitFor(
    async () => {
      expect(failedSends.length).toBeGreaterThanOrEqual(count);
      expect(await savedEntries()).toHaveLength(saved);
    },
    { timeout: 10_000, interval: 20 },
  );
}

type BotMessage = ReturnType<Emulator['botMessages']>[number];
const hasButtons = (m: BotMessage): boolean => buttons(m).length > 0;

describe('Telegram outbox', () => {
  it('keeps answers that fall due while the API is unreachable and delivers them in order, once', async () => {
    await daemon();
    outage = 'cut';
    const user = emulator.client(1);
    await user.sendMessage(user.makeMessage('/help'));
    await untilKept(1, 1);
    await user.sendMessage(user.makeMessage('/rules'));
    await untilKept(1, 2);
    expect(emulator.botMessages(1)).toHaveLength(0);

    outage = undefined;
    const messages = await emulator.waitForBot(1, (ms) => ms.length >= 2);
    expect(messages[0]?.text).toContain('/help');
    expect(messages[1]?.text).toContain('always-allow');
    await vi.waitFor(async () => expect(await savedEntries()).toHaveLength(0));
    // A later answer is the barrier: once it is in, a duplicate of the kept ones would be too.
    await user.sendMessage(user.makeMessage('/help'));
    expect(await emulator.waitForBot(1, (ms) => ms.length >= 3)).toHaveLength(3);
  });

  it('delivers what one daemon kept after a restart, from the next daemon', async () => {
    const first = await daemon();
    outage = { status: 502, text: BAD_GATEWAY };
    const user = emulator.client(1);
    await user.sendMessage(user.makeMessage('/help'));
    await untilKept(1, 1);
    await first.stop();

    outage = undefined;
    await daemon();
    const [answer] = await emulator.waitForBot(1, (ms) => ms.length >= 1);
    expect(answer?.text).toContain('/help');
    await vi.waitFor(async () => expect(await savedEntries()).toHaveLength(0));
  });

  it('posts a card kept during an outage with its buttons, and its press edits it', async () => {
    await daemon();
    outage = { status: 502, text: BAD_GATEWAY };
    const user = emulator.client(1);
    await user.sendMessage(user.makeMessage('/write ~/late-card.txt hello'));
    await untilKept(1, 1);

    outage = undefined;
    const card = (await emulator.waitForBot(1, (ms) => ms.some(hasButtons))).find(hasButtons);
    // As Telegram does, the press carries the card's message (here the emulator's id for it).
    const posted = emulator.server.storage.botMessages.find((update) => update.message === card);
    await user.sendCallback(
      user.makeCallbackQuery(buttonData(card, 'Allow once'), {
        message: { message_id: posted?.messageId, chat: { id: 1 } },
      }),
    );
    const after = await emulator.waitForBot(1, (ms) =>
      ms.some((m) => m.text.includes('Allowed once by telegram:1')),
    );
    // The card was edited in place (the late post recorded where it went), not posted again.
    expect(after.some(hasButtons)).toBe(false);
    await vi.waitFor(() =>
      expect(existsSync(join(process.env.HOME ?? '', 'late-card.txt'))).toBe(true),
    );
  });

  it('gives up what waited longer than outbox.max_age_minutes and tells the chat what', async () => {
    await daemon(0.02);
    outage = 'cut';
    const user = emulator.client(1);
    await user.sendMessage(user.makeMessage('/help'));
    await untilKept(1, 1);
    // 0.02 minutes is 1.2 s: by then the answer is too old to send.
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    outage = undefined;
    const [notice] = await emulator.waitForBot(1, (ms) => ms.length >= 1);
    expect(notice?.text).toMatch(
      /^Telegram could not be reached from .+ UTC for longer than I keep/,
    );
    expect(notice?.text).toContain('gave up on a message for this chat: "Commands:');
    await vi.waitFor(async () => expect(await savedEntries()).toHaveLength(0));
    expect(emulator.botMessages(1)).toHaveLength(1);
  });

  it('tells the chat when Telegram refuses a message outright, and does not retry it', async () => {
    await daemon();
    outage = {
      status: 400,
      text: JSON.stringify({
        ok: false,
        error_code: 400,
        description: 'Bad Request: message is too long',
      }),
    };
    const user = emulator.client(1);
    await user.sendMessage(user.makeMessage('/help'));
    await vi.waitFor(() => expect(failedSends).toHaveLength(1));
    outage = undefined;
    const [notice] = await emulator.waitForBot(1, (ms) => ms.length >= 1);
    expect(notice?.text).toEqual(
      expect.stringMatching(
        /^Telegram refused a message for this chat \(400 Bad Request: message is too long\), so it was not delivered: "Commands:/,
      ),
    );
    await user.sendMessage(user.makeMessage('/rules'));
    expect(await emulator.waitForBot(1, (ms) => ms.length >= 2)).toHaveLength(2);
    expect(failedSends).toHaveLength(1);
  });
});
