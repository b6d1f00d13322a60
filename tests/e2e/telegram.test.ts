// End to end on Telegram: the emulator, the grammY adapter, the real chat service, pipeline,
// offline model and executors; a person asks, gets a card, presses, and the file appears.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  buttonData,
  buttons,
  startEmulator,
  type Emulator,
} from '../channels/telegram/emulator.ts';
import { startTestDaemon, type TestDaemon } from '../channels/telegram/daemon.ts';

const home = process.env.HOME ?? '';
let emulator: Emulator;
let stateDir: string;
const daemons: TestDaemon[] = [];

beforeEach(async () => {
  emulator = await startEmulator();
  stateDir = await mkdtemp(join(home, 'state-'));
});
afterEach(async () => {
  for (const daemon of daemons.splice(0)) await daemon.stop();
  await emulator.stop();
});

async function daemon(extra: Parameters<typeof startTestDaemon>[2] = {}): Promise<TestDaemon> {
  const started = await startTestDaemon(emulator, stateDir, extra);
  daemons.push(started);
  return started;
}

type BotMessage = ReturnType<Emulator['botMessages']>[number];
const hasButtons = (m: BotMessage): boolean => buttons(m).length > 0;

async function askForWrite(userId: number, name: string): Promise<BotMessage> {
  const user = emulator.client(userId);
  await user.sendMessage(user.makeMessage(`/write ~/${name} hello`));
  const messages = await emulator.waitForBot(userId, (ms) => ms.some(hasButtons));
  const card = messages.find(hasButtons);
  if (card === undefined) throw new Error('no card');
  return card;
}

async function press(userId: number, chatId: number, data: string): Promise<void> {
  const user = emulator.client(userId, chatId);
  await user.sendCallback(user.makeCallbackQuery(data));
}

async function auditLines(): Promise<Record<string, unknown>[]> {
  const dir = join(stateDir, 'data', 'custode', 'vaglio');
  const files = await readdir(dir);
  const text = (await Promise.all(files.map((f) => readFile(join(dir, f), 'utf8')))).join('');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('Telegram approvals end to end', () => {
  it('asks with three buttons; Allow once writes the file, edits the card and answers', async () => {
    await daemon();
    const card = await askForWrite(1, 'once.txt');
    expect(card.text.split('\n')[0]).toBe('Approval needed: Create ~/once.txt');
    expect(buttons(card).map((b) => b.text)).toEqual(['Allow once', 'Always allow', 'Deny']);
    expect(existsSync(join(home, 'once.txt'))).toBe(false);

    await press(1, 1, buttonData(card, 'Allow once'));
    const after = await emulator.waitForBot(
      1,
      (ms) =>
        ms.some((m) => m.text.includes('Allowed once by telegram:1')) &&
        ms.length >= 2 &&
        !ms.some(hasButtons),
    );
    expect(await readFile(join(home, 'once.txt'), 'utf8')).toBe('hello');
    const edited = after.find((m) => m.text.includes('Allowed once by telegram:1'));
    expect(edited?.text.split('\n')[0]).toBe('Create ~/once.txt');
    await emulator.waitForBot(1, (ms) => ms.length >= 2 && ms.at(-1) !== edited);
    await vi.waitFor(async () => {
      expect(await auditLines()).toContainEqual(
        expect.objectContaining({
          event: 'approval',
          executor: 'fs_write',
          decided_by: 'telegram:1',
          answer: 'once',
          args_keys: ['content', 'path'],
        }),
      );
    });
  });

  it('Deny leaves no file, says who denied, and the turn still answers', async () => {
    await daemon();
    const card = await askForWrite(1, 'denied.txt');
    await press(1, 1, buttonData(card, 'Deny'));
    const messages = await emulator.waitForBot(
      1,
      (ms) => ms.some((m) => m.text.includes('Denied by telegram:1')) && ms.length >= 2,
    );
    expect(messages.some(hasButtons)).toBe(false);
    expect(existsSync(join(home, 'denied.txt'))).toBe(false);
    await vi.waitFor(async () => {
      expect(await auditLines()).toContainEqual(
        expect.objectContaining({ event: 'approval', answer: 'deny', decided_by: 'telegram:1' }),
      );
    });
  });

  it('refuses a stranger with a code for the owner, never asks the model for them, and lets them pair with the logged code', async () => {
    const running = await daemon();
    const stranger = emulator.client(99);
    await stranger.sendMessage(stranger.makeMessage('/write ~/stranger.txt hi'));
    await stranger.sendMessage(stranger.makeMessage('hello?'));
    await stranger.sendMessage(stranger.makeMessage('/pair not-the-code'));
    const refused = await emulator.waitForBot(
      99,
      (ms) =>
        ms.some((m) => m.text.startsWith('That code is not right')) &&
        ms.some((m) => m.text.includes('custode pair approve')),
    );
    expect(refused.filter((m) => m.text.includes('custode pair approve'))).toHaveLength(1);
    expect(running.modelCalls()).toBe(0);
    expect(existsSync(join(home, 'stranger.txt'))).toBe(false);

    const code = running.logLines.find(
      (line) => typeof line.pairing_code === 'string',
    )?.pairing_code;
    expect(typeof code).toBe('string');
    await stranger.sendMessage(stranger.makeMessage(`/pair ${String(code)}`));
    await emulator.waitForBot(99, (ms) =>
      ms.some((m) => m.text === 'Paired. You can talk to me now.'),
    );
    await stranger.sendMessage(stranger.makeMessage('/write ~/paired.txt hi'));
    await emulator.waitForBot(99, (ms) => ms.some(hasButtons));
    expect(running.modelCalls()).toBeGreaterThan(0);
    expect(
      JSON.parse(
        await readFile(join(stateDir, 'state', 'custode', 'telegram', 'paired.json'), 'utf8'),
      ),
    ).toMatchObject({
      v: 2,
      users: [{ id: '99', label: 'user99 @testUserName' }],
      requests: [],
    });
  });

  it('refuses a press by someone else; the owner can still answer', async () => {
    await daemon();
    const card = await askForWrite(1, 'owner.txt');
    await press(2, 1, buttonData(card, 'Allow once'));
    await press(1, 1, buttonData(card, 'Deny'));
    await emulator.waitForBot(1, (ms) => ms.some((m) => m.text.includes('Denied by telegram:1')));
    expect(existsSync(join(home, 'owner.txt'))).toBe(false);
    await vi.waitFor(async () => {
      const approvals = (await auditLines()).filter((line) => line.event === 'approval');
      expect(approvals.map((line) => line.decided_by)).toEqual(['telegram:1']);
    });
  });

  it('Always allow saves a narrow rule: the next write there runs without a card until /rules rm', async () => {
    await daemon();
    await mkdir(join(home, 'tg-notes'), { recursive: true });
    // Overwrites: a new file in an existing folder runs as the workspace tier's, with no card.
    for (const name of ['a.txt', 'b.txt', 'c.txt'])
      await writeFile(join(home, 'tg-notes', name), 'old');
    const user = emulator.client(1);
    const card = await askForWrite(1, 'tg-notes/a.txt');
    // The card says what the button would save before it is pressed.
    expect(card.text).toContain('\nAlways allow saves: fs_write in ~/tg-notes/ and below\n');
    await press(1, 1, buttonData(card, 'Always allow'));
    await emulator.waitForBot(1, (ms) =>
      ms.some((m) =>
        m.text.includes(
          'Saved an always-allow rule: Always allow fs_write in ~/tg-notes/ and below',
        ),
      ),
    );
    await vi.waitFor(async () => {
      expect(await readFile(join(home, 'tg-notes', 'a.txt'), 'utf8')).toBe('hello');
    });

    await user.sendMessage(user.makeMessage('/write ~/tg-notes/b.txt again'));
    await vi.waitFor(async () => {
      expect(await readFile(join(home, 'tg-notes', 'b.txt'), 'utf8')).toBe('again');
    });
    expect(
      emulator.botMessages(1).filter((m) => m.text.startsWith('Approval needed')),
    ).toHaveLength(0);

    await user.sendMessage(user.makeMessage('/rules'));
    await emulator.waitForBot(1, (ms) =>
      ms.some((m) => m.text.includes('1. Always allow fs_write in ~/tg-notes/ and below')),
    );
    await user.sendMessage(user.makeMessage('/rules rm 1'));
    await user.sendMessage(user.makeMessage('/write ~/tg-notes/c.txt third'));
    await emulator.waitForBot(1, (ms) => ms.some(hasButtons));
    expect(await readFile(join(home, 'tg-notes', 'c.txt'), 'utf8')).toBe('old');
  });

  it('shows a guard refusal as a card without buttons, with advice', async () => {
    await daemon();
    const user = emulator.client(1);
    await user.sendMessage(user.makeMessage('/read ~/.ssh/id_rsa'));
    const messages = await emulator.waitForBot(1, (ms) =>
      ms.some((m) => m.text.startsWith('Refused: Read ~/.ssh/id_rsa')),
    );
    const refusal = messages.find((m) => m.text.startsWith('Refused:'));
    expect(buttons(refusal)).toEqual([]);
    expect(refusal?.text).toContain('What you can do: This is forbidden by the constitution');
  });

  it('resumes a card pressed after the daemon restarted', async () => {
    const first = await daemon();
    const card = await askForWrite(1, 'restart.txt');
    await first.stop();
    daemons.splice(daemons.indexOf(first), 1);
    await daemon();
    await press(1, 1, buttonData(card, 'Allow once'));
    await emulator.waitForBot(1, (ms) =>
      ms.some((m) => m.text.includes('Allowed once by telegram:1')),
    );
    await vi.waitFor(async () => {
      expect(await readFile(join(home, 'restart.txt'), 'utf8')).toBe('hello');
    });
  });

  it('audits a card the expiry sweep resolves, with nobody pressing it', async () => {
    const running = await daemon({ config: { approvals: { expiry_minutes: 0.0001 } } });
    await askForWrite(1, 'swept.txt');
    await vi.waitFor(async () => {
      expect(await running.app.approvals.expired()).toHaveLength(1);
    });
    expect(await running.app.service.expireDue()).toBe(1);
    await emulator.waitForBot(1, (ms) =>
      ms.some((m) => m.text.includes('Expired without an answer')),
    );
    expect(existsSync(join(home, 'swept.txt'))).toBe(false);
    expect(await auditLines()).toContainEqual(
      expect.objectContaining({ event: 'approval', answer: 'expired', decided_by: 'expiry' }),
    );
  });

  it('resolves an expired card as denied', async () => {
    const running = await daemon({ config: { approvals: { expiry_minutes: 0.0001 } } });
    const card = await askForWrite(1, 'expired.txt');
    await vi.waitFor(async () => {
      expect(await running.app.approvals.expired()).toHaveLength(1);
    });
    await press(1, 1, buttonData(card, 'Allow once'));
    await emulator.waitForBot(1, (ms) =>
      ms.some((m) => m.text.includes('Expired without an answer')),
    );
    expect(existsSync(join(home, 'expired.txt'))).toBe(false);
    await vi.waitFor(async () => {
      expect(await auditLines()).toContainEqual(
        expect.objectContaining({ event: 'approval', answer: 'expired', decided_by: 'expiry' }),
      );
    });
  });
});
