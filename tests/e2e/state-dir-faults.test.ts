// The state dir failing under a running Telegram daemon: its own small tmpfs, remounted
// read-only or filled up mid-run (mounting needs root; an ordinary user skips). A card that
// cannot be kept is never asked and nothing runs, and the person is told so; a press that
// cannot be recorded runs nothing and says so at once; with the disk back the same request
// and the same card work.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startLongPollProxy } from '../../runtime/bench/long-poll-proxy.ts';
import { monthKey, ownDirs } from '../../runtime/paths.ts';
import { unwritableDirs } from '../../runtime/state-store.ts';
import { daemonEnv, startTestDaemon } from '../channels/telegram/daemon.ts';
import {
  buttonData,
  buttons,
  startEmulator,
  type Emulator,
} from '../channels/telegram/emulator.ts';

const home = process.env.HOME ?? '';
let root: string;
const auditFile = (): string => join(root, 'data', 'custode', 'vaglio', `${monthKey()}.jsonl`);
const cleanup: (() => Promise<void>)[] = [];
let emulator: Emulator;
let stateDir: string;
let pressAnswers: string[];

/** Whether a tmpfs can be mounted here (root, and a kernel that lets us). */
function canMount(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(home, 'mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe]);
    return true;
  } catch {
    return false;
  } finally {
    rmdirSync(probe);
  }
}
const mountable = canMount();

const mount = (...options: string[]): void =>
  void execFileSync('mount', ['-o', options.join(','), stateDir], { stdio: 'ignore' });

beforeEach(async () => {
  emulator = await startEmulator();
  cleanup.push(() => emulator.stop());
  root = await mkdtemp(join(home, 'state-faults-'));
  stateDir = join(root, 'state', 'custode');
  await mkdir(stateDir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', stateDir], {
    stdio: 'ignore',
  });
  cleanup.push(() => Promise.resolve(void execFileSync('umount', ['-l', stateDir])));
  pressAnswers = [];
  const proxy = await startLongPollProxy(emulator.server, {
    hook: (method, body) => {
      if (method === 'answerCallbackQuery') pressAnswers.push(body);
      return undefined;
    },
  });
  cleanup.push(() => proxy.close());
  // The daemon's start-up check, as `custode daemon` runs it: it also makes its dirs.
  expect(await unwritableDirs(ownDirs(daemonEnv(root, {})))).toEqual([]);
  const daemon = await startTestDaemon({ ...emulator, apiRoot: proxy.url }, root);
  cleanup.push(() => daemon.stop());
});
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

type BotMessage = ReturnType<Emulator['botMessages']>[number];
const hasButtons = (m: BotMessage): boolean => buttons(m).length > 0;

async function send(text: string): Promise<void> {
  const user = emulator.client(1);
  await user.sendMessage(user.makeMessage(text));
}

/** Presses a card's button; as Telegram does, the press carries the card's message. */
async function press(card: BotMessage | undefined, label: string): Promise<void> {
  const user = emulator.client(1);
  const posted = emulator.server.storage.botMessages.find((update) => update.message === card);
  await user.sendCallback(
    user.makeCallbackQuery(buttonData(card, label), {
      message: { message_id: posted?.messageId, chat: { id: 1 } },
    }),
  );
}

/** Waits until the daemon has noted where `card` went (its ref is in the approval file). */
async function refSaved(card: BotMessage | undefined): Promise<void> {
  const id = buttonData(card, 'Deny').split(':')[1] ?? '';
  await vi.waitFor(
    async () =>
      expect(await readFile(join(stateDir, 'approvals', `${id}.json`), 'utf8')).toContain(
        'messageRef',
      ),
    { timeout: 15_000 },
  );
}

async function told(start: string): Promise<string> {
  const messages = await emulator.waitForBot(1, (ms) => ms.some((m) => m.text.startsWith(start)));
  return messages.find((m) => m.text.startsWith(start))?.text ?? '';
}

/** Cards with buttons still on them. */
const openCards = (): BotMessage[] => emulator.botMessages(1).filter(hasButtons);

async function askedAndAllowed(file: string): Promise<void> {
  await send(`/write ~/${file} hello`);
  const card = (await emulator.waitForBot(1, () => openCards().length > 0)).find(hasButtons);
  await press(card, 'Allow once');
  await vi.waitFor(() => expect(existsSync(join(home, file))).toBe(true), { timeout: 15_000 });
}

describe.skipIf(!mountable)(
  'the daemon when its state dir fails mid-run (needs root to mount)',
  () => {
    it('read-only: asks nothing and runs nothing, says so; a press is answered "not recorded"; all works once writable', async () => {
      mount('remount', 'ro');
      await send('/write ~/ro-unasked.txt hello');
      const text = await told('Not asked, so not run:');
      expect(text).toContain('~/ro-unasked.txt');
      expect(text).toContain('the file system is read-only (EROFS) at the approvals dir');
      expect(openCards()).toEqual([]);
      expect(existsSync(join(home, 'ro-unasked.txt'))).toBe(false);

      // A card asked while the dir could be written, pressed after it went read-only.
      mount('remount', 'rw');
      await send('/write ~/ro-pressed.txt hello');
      const card = (await emulator.waitForBot(1, () => openCards().length > 0)).find(hasButtons);
      await refSaved(card);
      mount('remount', 'ro');
      await press(card, 'Allow once');
      await vi.waitFor(
        () => expect(pressAnswers.join('\n')).toContain('Your answer could not be recorded'),
        { timeout: 15_000 },
      );
      expect(existsSync(join(home, 'ro-pressed.txt'))).toBe(false);
      expect(openCards()).toHaveLength(1);

      mount('remount', 'rw');
      await press(card, 'Allow once');
      await vi.waitFor(() => expect(existsSync(join(home, 'ro-pressed.txt'))).toBe(true), {
        timeout: 15_000,
      });
      await emulator.waitForBot(1, () => openCards().length === 0);
    }, 60_000);

    it('full: a card pressed runs and says it is not kept; a new card is not asked, nothing runs, the person is told; with space again all works', async () => {
      // A card asked before the disk filled up, pressed after: the claim is a rename, which
      // needs no space, so the approved write runs; the turn says it was not kept.
      await send('/write ~/full-pressed.txt hello');
      const card = (await emulator.waitForBot(1, () => openCards().length > 0)).find(hasButtons);
      await refSaved(card);
      const filler = join(stateDir, 'filler');
      await expect(writeFile(filler, Buffer.alloc(1024 * 1024))).rejects.toMatchObject({
        code: 'ENOSPC',
      });
      await press(card, 'Allow once');
      await vi.waitFor(() => expect(existsSync(join(home, 'full-pressed.txt'))).toBe(true), {
        timeout: 15_000,
      });
      expect(await told('path: ')).toContain(
        '(This turn could not be saved in the chat history: the disk is full (ENOSPC) at the history dir',
      );
      await emulator.waitForBot(1, () => openCards().length === 0);
      await send('/write ~/full-unasked.txt hello');
      const text = await told('Not asked, so not run:');
      expect(text).toContain('~/full-unasked.txt');
      expect(text).toContain('the disk is full (ENOSPC) at the approvals dir');
      expect(openCards()).toEqual([]);
      expect(existsSync(join(home, 'full-unasked.txt'))).toBe(false);
      // No pending card was kept (the one pressed above is a used record now).
      expect(readdirSync(join(stateDir, 'approvals')).filter((n) => n.endsWith('.json'))).toEqual(
        [],
      );
      // The audit log (elsewhere, writable) closes the "ask": never asked, so denied.
      expect(await readFile(auditFile(), 'utf8')).toContain(
        '"executor":"fs_write","args_keys":["content","path"],"channel":"telegram","sender":"telegram:1","decided_by":"unkept-card","answer":"deny"',
      );

      // A read needs no card: it runs and is answered, and the person learns it is not kept.
      await writeFile(join(home, 'full-notes.txt'), 'milk\n');
      await send('/read ~/full-notes.txt');
      const answer = await told('milk');
      expect(answer).toContain(
        '(This turn could not be saved in the chat history: the disk is full (ENOSPC) at the history dir',
      );

      await rm(filler);
      await askedAndAllowed('full-later.txt');
    }, 60_000);
  },
);
