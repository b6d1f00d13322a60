// Telegram as people use it: a stranger pairs through the owner (`custode pair approve`), the
// owner can list and revoke; in a group the bot answers only when mentioned or replied to, and
// the history says who asked; what it cannot read gets a reply saying so. Real grammY adapter
// against the telegram-test-api emulator; `custode pair` runs in-process on the same state dir.
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../../runtime/cli/main.ts';
import { daemonEnv, startTestDaemon, type TestDaemon } from './daemon.ts';
import { startEmulator, type Emulator } from './emulator.ts';

let emulator: Emulator;
let root: string;
let running: TestDaemon | undefined;

beforeEach(async () => {
  emulator = await startEmulator();
  root = await mkdtemp(join(process.env.HOME ?? '', 'tg-pair-'));
});
afterEach(async () => {
  await running?.stop();
  running = undefined;
  await emulator.stop();
});

async function pair(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await main(['pair', ...argv], {
    stdin: new PassThrough(),
    stdout,
    stderr,
    env: daemonEnv(root, {}),
  });
  return { code, out, err };
}

const texts = (chatId: number): string[] => emulator.botMessages(chatId).map((m) => m.text);

describe('telegram pairing through custode pair', () => {
  it('gives a stranger a code, lets the owner approve, list and revoke it', async () => {
    running = await startTestDaemon(emulator, root);
    const stranger = emulator.client(77);
    await stranger.sendMessage(stranger.makeMessage('hello'));
    const [reply] = await emulator.waitForBot(77, (ms) => ms.length === 1);
    const code = /custode pair approve (\S+)/.exec(reply?.text ?? '')?.[1];
    expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    // Asking again gives no second message: the same code is still waiting.
    await stranger.sendMessage(stranger.makeMessage('hello again'));
    expect((await pair('list')).out).toContain(
      `waiting  77 (user77 @testUserName): code ${String(code)}`,
    );
    expect(running.modelCalls()).toBe(0);

    const wrong = await pair('approve', 'AAAA-AAAA');
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain('no waiting request has the code AAAA-AAAA');
    const approved = await pair('approve', String(code).toLowerCase());
    expect(approved.code).toBe(0);
    expect(approved.out).toContain('Paired telegram user 77 (user77 @testUserName)');
    expect((await pair('list')).out).toMatch(
      /telegram:\n {2}paired {3}77 \(user77 @testUserName\)/,
    );

    // No restart: the daemon reads the pairing file at the next message.
    await stranger.sendMessage(stranger.makeMessage('/ls'));
    await emulator.waitForBot(77, (ms) => ms.some((m) => m.text.includes('.config/')));
    expect(running.modelCalls()).toBeGreaterThan(0);
    expect(texts(77).filter((t) => t.includes('custode pair approve'))).toHaveLength(1);

    expect((await pair('revoke', '77')).out).toContain('Revoked telegram user 77');
    const calls = running.modelCalls();
    await stranger.sendMessage(stranger.makeMessage('/ls'));
    await emulator.waitForBot(
      77,
      (ms) => ms.filter((m) => m.text.includes('custode pair approve')).length === 2,
    );
    expect(running.modelCalls()).toBe(calls);
    expect((await pair('revoke', '77')).code).toBe(1);
  });

  it('refuses a bad command line with the usage', async () => {
    const bad = await pair('approve');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('usage: custode pair list');
  });
});

describe('telegram groups', () => {
  const group = -100;
  const member = (userId: number, name: string) =>
    emulator.server.getClient(emulator.token, {
      userId,
      chatId: group,
      firstName: name,
      userName: name,
      type: 'group',
    });
  const mention = (text: string, name: string) => ({
    entities: [{ type: 'mention', offset: text.indexOf(name), length: name.length }],
  });

  it('answers only a mention of itself or a reply to it, strips only its own @name, and keeps who said what', async () => {
    running = await startTestDaemon(emulator, root);
    const alice = member(1, 'alice');
    const bob = member(2, 'bob');
    const lunch = 'lunch at noon, @bob?';
    await alice.sendMessage(alice.makeMessage(lunch, mention(lunch, '@bob')));
    await bob.sendMessage(bob.makeMessage('sure'));
    const asked = '@TestNameBot tell @bob what is here';
    await alice.sendMessage(alice.makeMessage(asked, mention(asked, '@TestNameBot')));
    await emulator.waitForBot(group, (ms) => ms.length === 1);
    await bob.sendMessage(
      bob.makeMessage('and for me?', {
        reply_to_message: { message_id: 1, from: { id: 666, is_bot: true, first_name: 'bot' } },
      }),
    );
    await emulator.waitForBot(group, (ms) => ms.length === 2);
    expect(running.modelTexts()).toEqual([
      '[alice (@alice)]: tell @bob what is here',
      '[bob (@bob)]: and for me?',
    ]);
  });

  it('ignores a stranger in a group (no code there), and answers everything with group_replies: all', async () => {
    running = await startTestDaemon(emulator, root, { groupReplies: 'all' });
    const stranger = member(99, 'eve');
    const asked = '@TestNameBot let me in';
    await stranger.sendMessage(stranger.makeMessage(asked, mention(asked, '@TestNameBot')));
    const alice = member(1, 'alice');
    await alice.sendMessage(alice.makeMessage('anyone there?'));
    await emulator.waitForBot(group, (ms) => ms.length === 1);
    expect(running.modelTexts()).toEqual(['[alice (@alice)]: anyone there?']);
    expect(texts(group).some((t) => t.includes('custode pair'))).toBe(false);
  });

  it('says so when it gets something it cannot read', async () => {
    running = await startTestDaemon(emulator, root);
    const alice = emulator.client(1);
    const sticker = alice.makeMessage('', { sticker: { file_id: 'x', width: 1, height: 1 } }) as {
      text?: string;
    };
    delete sticker.text;
    await alice.sendMessage(sticker as Parameters<typeof alice.sendMessage>[0]);
    const [reply] = await emulator.waitForBot(1, (ms) => ms.length === 1);
    expect(reply?.text).toContain('I cannot handle, and nothing was saved');
    expect(running.modelCalls()).toBe(0);
  });
});
