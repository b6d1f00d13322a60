// A press is answered at once, before the approved command runs (Telegram gives a callback
// only seconds and the button spins until it is answered), and the chat shows "typing…"
// while the command runs. A proxy in front of the emulator records every Bot API call.
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startLongPollProxy } from '../../../runtime/bench/long-poll-proxy.ts';
import { startTestDaemon } from './daemon.ts';
import { buttonData, buttons, startEmulator, type Emulator } from './emulator.ts';

interface Seen {
  readonly method: string;
  /** Whether the approved command had finished when the call was made. */
  readonly commandDone: boolean;
}

const home = process.env.HOME ?? '';
const cleanup: (() => Promise<void>)[] = [];
let emulator: Emulator;

beforeEach(async () => {
  emulator = await startEmulator();
  cleanup.push(() => emulator.stop());
});
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

type BotMessage = ReturnType<Emulator['botMessages']>[number];
const hasButtons = (m: BotMessage): boolean => buttons(m).length > 0;

describe('a Telegram card press', () => {
  it('is answered before the approved command runs, with typing shown while it runs', async () => {
    const done = join(home, 'slept.txt');
    const seen: Seen[] = [];
    const proxy = await startLongPollProxy(emulator.server, {
      hook: (method) => {
        seen.push({ method, commandDone: existsSync(done) });
        return undefined;
      },
    });
    cleanup.push(() => proxy.close());
    const root = await mkdtemp(join(home, 'press-'));
    const daemon = await startTestDaemon({ ...emulator, apiRoot: proxy.url }, root);
    cleanup.push(() => daemon.stop());

    const user = emulator.client(1);
    await user.sendMessage(user.makeMessage(`/run sleep 2 && touch ${done}`));
    const card = (await emulator.waitForBot(1, (ms) => ms.some(hasButtons))).find(hasButtons);
    const pressedAt = seen.length;
    await user.sendCallback(user.makeCallbackQuery(buttonData(card, 'Allow once')));
    await emulator.waitForBot(1, (ms) => ms.some((m) => m.text === '(no output)'));
    expect(existsSync(done)).toBe(true);

    const after = seen.slice(pressedAt).filter((call) => call.method !== 'getUpdates');
    const answer = after.findIndex((call) => call.method === 'answerCallbackQuery');
    expect(answer).toBeGreaterThanOrEqual(0);
    expect(after[answer]?.commandDone).toBe(false);
    const typing = after.filter((call) => call.method === 'sendChatAction');
    expect(typing.some((call) => !call.commandDone)).toBe(true);
  });
});
