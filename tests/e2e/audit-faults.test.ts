// Nothing runs without its audit line, through the real Telegram daemon: with the audit
// dir's month file on a full disk (/dev/full answers every write with ENOSPC) a read and a
// write are refused and the person is told why; an approval whose line cannot be written
// runs nothing; the approval line is written before the approved call runs; /stop is audited.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConfigInput } from '../../runtime/config.ts';
import { monthKey } from '../../runtime/paths.ts';
import { startTestDaemon, type TestDaemon } from '../channels/telegram/daemon.ts';
import {
  buttonData,
  buttons,
  startEmulator,
  type Emulator,
} from '../channels/telegram/emulator.ts';

const home = process.env.HOME ?? '';
const fullDisk = existsSync('/dev/full');
let emulator: Emulator;
let root: string;
const daemons: TestDaemon[] = [];

beforeEach(async () => {
  emulator = await startEmulator();
  root = await mkdtemp(join(home, 'audit-faults-'));
});
afterEach(async () => {
  for (const daemon of daemons.splice(0)) await daemon.stop();
  await emulator.stop();
});

async function daemon(config: ConfigInput = {}): Promise<TestDaemon> {
  const started = await startTestDaemon(emulator, root, { config });
  daemons.push(started);
  return started;
}

const auditDir = (): string => join(root, 'data', 'custode', 'vaglio');
const auditFile = (): string => join(auditDir(), `${monthKey()}.jsonl`);

/** The month's audit file becomes /dev/full: every write fails with ENOSPC, as on a full disk. */
async function fillTheAuditDisk(): Promise<void> {
  await mkdir(auditDir(), { recursive: true });
  await rm(auditFile(), { force: true });
  await symlink('/dev/full', auditFile());
}

async function auditLines(): Promise<Record<string, unknown>[]> {
  return (await readFile(auditFile(), 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

type BotMessage = ReturnType<Emulator['botMessages']>[number];
const hasButtons = (m: BotMessage): boolean => buttons(m).length > 0;

async function send(text: string): Promise<void> {
  const user = emulator.client(1);
  await user.sendMessage(user.makeMessage(text));
}

async function press(data: string): Promise<void> {
  const user = emulator.client(1);
  await user.sendCallback(user.makeCallbackQuery(data));
}

async function cardFor(text: string): Promise<BotMessage> {
  await send(text);
  const card = (await emulator.waitForBot(1, (ms) => ms.some(hasButtons))).find(hasButtons);
  if (card === undefined) throw new Error('no card');
  return card;
}

describe.skipIf(!fullDisk)('the daemon with its audit log on a full disk', () => {
  it('refuses a read and a write, telling the person why, and runs neither', async () => {
    await fillTheAuditDisk();
    await daemon();
    await send('/read /etc/hostname');
    const refused = await emulator.waitForBot(1, (ms) =>
      ms.some((m) => m.text.startsWith('Refused: Read /etc/hostname')),
    );
    const card = refused.find((m) => m.text.startsWith('Refused:'));
    expect(card?.text).toContain('its audit line could not be written (the disk is full (ENOSPC)');
    expect(card?.text).toContain('Nothing runs without its audit line');
    expect(buttons(card)).toEqual([]);

    await send('/write ~/unlogged.txt hello');
    await emulator.waitForBot(1, (ms) =>
      ms.some((m) => m.text.startsWith('Refused: Write ~/unlogged.txt')),
    );
    expect(emulator.botMessages(1).some(hasButtons)).toBe(false);
    expect(existsSync(join(home, 'unlogged.txt'))).toBe(false);
  });

  it('runs an approved write only if its approval line is written', async () => {
    const first = await daemon();
    const card = await cardFor('/write ~/approved-unlogged.txt hello');
    await first.stop();
    daemons.splice(0);
    await fillTheAuditDisk();
    await daemon();
    await press(buttonData(card, 'Allow once'));
    const after = await emulator.waitForBot(1, (ms) =>
      ms.some((m) => m.text.startsWith('Not run: the approval could not be written')),
    );
    expect(after.find((m) => m.text.startsWith('Not run:'))?.text).toContain(
      'the disk is full (ENOSPC)',
    );
    await emulator.waitForBot(1, (ms) => ms.some((m) => m.text.endsWith('Denied.')));
    expect(emulator.botMessages(1).some(hasButtons)).toBe(false);
    expect(existsSync(join(home, 'approved-unlogged.txt'))).toBe(false);
  });

  it('runs calls unlogged when the operator set audit.on_failure: continue', async () => {
    await fillTheAuditDisk();
    await daemon({ audit: { on_failure: 'continue' } });
    const card = await cardFor('/write ~/continued.txt hello');
    await press(buttonData(card, 'Allow once'));
    // The press resumes the turn through the Bot API: under a loaded machine that takes seconds.
    await vi.waitFor(
      async () => {
        expect(await readFile(join(home, 'continued.txt'), 'utf8')).toBe('hello');
      },
      { timeout: 15_000, interval: 50 },
    );
  });
});

describe('approval audit lines', () => {
  it('are written before the approved call runs', async () => {
    await daemon();
    const card = await cardFor('/write ~/ordered.txt hello');
    await press(buttonData(card, 'Allow once'));
    // The press resumes the turn through the Bot API: under a loaded machine that takes seconds.
    await vi.waitFor(
      async () => {
        expect(await readFile(join(home, 'ordered.txt'), 'utf8')).toBe('hello');
      },
      { timeout: 15_000, interval: 50 },
    );
    const lines = await auditLines();
    const approval = lines.findIndex((line) => line.event === 'approval');
    const allowed = lines.findIndex(
      (line) => line.event === 'decision' && line.decision === 'allow',
    );
    expect(lines[approval]).toMatchObject({ answer: 'once', decided_by: 'telegram:1' });
    expect(approval).toBeGreaterThanOrEqual(0);
    expect(allowed).toBeGreaterThan(approval);
  });

  it('record a card cancelled with /stop, as denied by the person who stopped it', async () => {
    await daemon();
    await cardFor('/write ~/stopped.txt hello');
    await send('/stop');
    await emulator.waitForBot(1, (ms) =>
      ms.some((m) => m.text === 'Stopped: the pending action was not run.'),
    );
    expect(await auditLines()).toContainEqual(
      expect.objectContaining({ event: 'approval', answer: 'deny', decided_by: 'telegram:1' }),
    );
    expect(existsSync(join(home, 'stopped.txt'))).toBe(false);
  });
});
