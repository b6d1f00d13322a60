// Webhook mode: the bot registers its URL with the secret token, and only updates that
// carry the secret reach the chat service (a forged one is answered 401).
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../../runtime/bench/free-port.ts';
import { startTestDaemon, type TestDaemon } from './daemon.ts';
import { buttons, startEmulator, type Emulator } from './emulator.ts';

let emulator: Emulator;
let daemon: TestDaemon;
afterEach(async () => {
  await daemon.stop();
  await emulator.stop();
});

function update(id: number, userId: number, text: string): string {
  return JSON.stringify({
    update_id: id,
    message: {
      message_id: id,
      date: Math.floor(Date.now() / 1000),
      from: { id: userId, is_bot: false, first_name: 'u' },
      chat: { id: userId, type: 'private', first_name: 'u' },
      text,
    },
  });
}

describe('Telegram webhook mode', () => {
  it('accepts updates with the secret and refuses forged ones', async () => {
    emulator = await startEmulator();
    const port = await freePort();
    const url = `http://127.0.0.1:${String(port)}/telegram`;
    daemon = await startTestDaemon(
      emulator,
      await mkdtemp(join(process.env.HOME ?? '', 'webhook-')),
      {
        webhook: { url, port, secret: 'webhook-secret' },
      },
    );
    const post = (body: string, secret?: string): Promise<Response> =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(secret === undefined ? {} : { 'x-telegram-bot-api-secret-token': secret }),
        },
        body,
      });

    expect((await post(update(1, 1, '/write ~/forged.txt hi'))).status).toBe(401);
    expect((await post(update(2, 1, '/write ~/forged.txt hi'), 'wrong')).status).toBe(401);
    expect((await post(update(3, 1, '/write ~/hook.txt hi'), 'webhook-secret')).status).toBe(200);
    const messages = await emulator.waitForBot(1, (ms) => ms.some((m) => buttons(m).length > 0));
    expect(messages.map((m) => m.text.split('\n')[0])).toEqual([
      'Approval needed: Create ~/hook.txt',
    ]);
    expect(daemon.modelCalls()).toBe(1);
  });
});
