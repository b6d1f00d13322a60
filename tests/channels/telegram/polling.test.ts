// Long polling survives the Bot API going away: each failure is logged, grammY retries, and
// once the API is back the same daemon answers again. Also the pieces a turn's text passes
// through: splitting at Telegram's limit and plain text that no character can break.
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { splitMessage, TELEGRAM_TEXT_LIMIT } from '../../../channels/split-message.ts';
import { startTestDaemon, type TestDaemon } from './daemon.ts';
import { startEmulator, type Emulator } from './emulator.ts';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function emulatorOn(port?: number, token?: string): Promise<Emulator> {
  const emulator = await startEmulator({
    ...(port === undefined ? {} : { port }),
    ...(token === undefined ? {} : { token }),
  });
  return emulator;
}

describe('Telegram long polling', () => {
  it('logs each failed poll while the API is down and answers again once it is back', async () => {
    const first = await emulatorOn();
    const root = await mkdtemp(join(process.env.HOME ?? '', 'poll-'));
    const daemon: TestDaemon = await startTestDaemon(first, root);
    cleanup.push(() => daemon.stop());
    const user = first.client(1);
    await user.sendMessage(user.makeMessage('/help'));
    await first.waitForBot(1, (ms) => ms.length > 0);

    const port = Number(new URL(first.apiRoot).port);
    await first.stop();
    await vi.waitFor(() => {
      expect(daemon.logLines.some((line) => line.msg === 'telegram polling failed; retrying')).toBe(
        true,
      );
    });

    const second = await emulatorOn(port, first.token);
    cleanup.push(() => second.stop());
    const again = second.client(1);
    await again.sendMessage(again.makeMessage('/help'));
    await second.waitForBot(1, (ms) => ms.length > 0);
  });
});

describe('splitMessage', () => {
  it('keeps short text whole and cuts long text at line boundaries under the limit', () => {
    expect(splitMessage('hello')).toEqual(['hello']);
    expect(splitMessage('')).toEqual(['']);
    const lines = Array.from({ length: 500 }, (_, i) => `line ${String(i)} ${'x'.repeat(20)}`);
    const parts = splitMessage(lines.join('\n'));
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.every((part) => part.length <= TELEGRAM_TEXT_LIMIT)).toBe(true);
    expect(parts.join('\n')).toBe(lines.join('\n'));
    expect(parts.every((part) => part.split('\n').every((line) => lines.includes(line)))).toBe(
      true,
    );
  });

  it('cuts a line without breaks at spaces, then hard, losing nothing', () => {
    const words = Array.from({ length: 2000 }, () => 'word').join(' ');
    const parts = splitMessage(words, 100);
    expect(parts.every((part) => part.length <= 100)).toBe(true);
    expect(parts.join(' ')).toBe(words);
    const solid = 'y'.repeat(250);
    expect(splitMessage(solid, 100)).toEqual(['y'.repeat(100), 'y'.repeat(100), 'y'.repeat(50)]);
  });
});
