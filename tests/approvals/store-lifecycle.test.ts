// The approval store across days and damage: a card expires at its exact expiry time, the
// oldest is listed first, a tombstone lives 7 days and no longer, a damaged card is moved
// aside naming the chat it still shows, files that are not cards are left alone, and a card
// pressed before its message ref came back stays pressed. Real files in a temp dir.
import { mkdtemp, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApprovalStore, newApprovalId } from '../../runtime/approvals/store.ts';
import { samplePending } from './fixtures.ts';

const DAY = 24 * 60 * 60 * 1000;
let dir: string;
beforeEach(async () => {
  dir = join(await mkdtemp(join(process.env.HOME ?? tmpdir(), 'custode-approvals-')), 'approvals');
});

describe('expiry', () => {
  it('a card is expired from the very millisecond of its expiry, not a millisecond before', async () => {
    const store = createApprovalStore(dir);
    const now = new Date('2026-11-21T10:00:00Z');
    const pending = samplePending({ now, minutes: 10 });
    await store.put(pending);
    const at = new Date(Date.parse(pending.expiresAt));
    const before = new Date(at.getTime() - 1);
    expect(await store.expired(before)).toEqual([]);
    expect((await store.expired(at)).map((p) => p.id)).toEqual([pending.id]);
    expect((await store.take(pending.id, 'telegram:42', [], at)).kind).toBe('expired');
  });

  it('a card pressed a millisecond before its expiry is taken', async () => {
    const store = createApprovalStore(dir);
    const pending = samplePending({ now: new Date('2026-11-21T10:00:00Z'), minutes: 10 });
    await store.put(pending);
    const before = new Date(Date.parse(pending.expiresAt) - 1);
    expect((await store.take(pending.id, 'telegram:42', [], before)).kind).toBe('taken');
  });
});

describe('listing', () => {
  it('lists the oldest card first, whatever order the files were written in', async () => {
    const store = createApprovalStore(dir);
    const late = samplePending({ now: new Date('2026-11-21T12:00:00Z') });
    const early = samplePending({ now: new Date('2026-11-21T08:00:00Z') });
    const middle = samplePending({ now: new Date('2026-11-21T10:00:00Z') });
    for (const pending of [late, early, middle]) await store.put(pending);
    expect((await store.list()).map((p) => p.id)).toEqual([early.id, middle.id, late.id]);
  });

  it('leaves files that are not cards alone: other names, tombstones, notes', async () => {
    const store = createApprovalStore(dir);
    const pending = samplePending();
    await store.put(pending);
    const stranger = { ...samplePending(), id: 'not-an-approval-id' };
    await writeFile(join(dir, 'not-an-approval-id.json'), JSON.stringify(stranger));
    await writeFile(join(dir, 'README.txt'), 'notes');
    expect((await store.list()).map((p) => p.id)).toEqual([pending.id]);
    expect(await store.setAsideDamaged()).toEqual([]);
    expect((await readdir(dir)).sort()).toEqual(
      [`${pending.id}.json`, 'README.txt', 'not-an-approval-id.json'].sort(),
    );
  });

  it('an empty or missing directory lists nothing and sweeps nothing', async () => {
    const store = createApprovalStore(dir);
    expect(await store.list()).toEqual([]);
    expect(await store.expired()).toEqual([]);
    expect(await store.setAsideDamaged()).toEqual([]);
  });
});

describe('tombstones', () => {
  it('a tombstone older than 7 days is pruned at the sweep; a younger one still refuses a replay', async () => {
    const store = createApprovalStore(dir);
    const now = new Date();
    const old = samplePending();
    const young = samplePending();
    for (const pending of [old, young]) {
      await store.put(pending);
      await store.take(pending.id, 'telegram:42', []);
    }
    const eightDays = new Date(now.getTime() - 8 * DAY);
    const sixDays = new Date(now.getTime() - 6 * DAY);
    await utimes(join(dir, `${old.id}.taken`), eightDays, eightDays);
    await utimes(join(dir, `${young.id}.taken`), sixDays, sixDays);
    await store.expired(now);
    expect(await readdir(dir)).toEqual([`${young.id}.taken`]);
    expect(await store.take(old.id, 'telegram:42', [])).toEqual({ kind: 'unknown' });
    expect(await store.take(young.id, 'telegram:42', [])).toEqual({ kind: 'already_resolved' });
  });
});

describe('the sweep and the press stay inside the store', () => {
  it('the sweep prunes tombstones only, never a card file however old', async () => {
    const store = createApprovalStore(dir);
    const now = new Date();
    const pending = samplePending({ now: new Date(now.getTime() - 9 * DAY) });
    await store.put(pending);
    const nineDays = new Date(now.getTime() - 9 * DAY);
    await utimes(join(dir, `${pending.id}.json`), nineDays, nineDays);
    expect((await store.expired(now)).map((p) => p.id)).toEqual([pending.id]);
    expect(await readdir(dir)).toEqual([`${pending.id}.json`]);
  });

  it('a press with a path-like id never takes a card file one level up', async () => {
    const store = createApprovalStore(dir);
    await store.put(samplePending());
    const outside = join(dir, '..', 'outside.json');
    const text = `${JSON.stringify(samplePending())}\n`;
    await writeFile(outside, text);
    expect(await store.take('../outside', 'telegram:42', [])).toEqual({ kind: 'unknown' });
    expect(await readFile(outside, 'utf8')).toBe(text);
  });

  it('a corrupt card is reported with the file it is in', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    );
    const store = createApprovalStore(dir, { logger });
    await store.put(samplePending());
    const broken = newApprovalId();
    await writeFile(join(dir, `${broken}.json`), '{"v":1,"id":');
    await store.list();
    expect(lines).toEqual([
      expect.objectContaining({
        msg: 'corrupt pending approval skipped',
        file: join(dir, `${broken}.json`),
      }),
    ]);
  });
});

describe('damaged cards', () => {
  it('moves a damaged card aside and names the chat it still shows; whole cards stay', async () => {
    const store = createApprovalStore(dir);
    const whole = samplePending();
    await store.put(whole);
    const named = newApprovalId();
    await writeFile(
      join(dir, `${named}.json`),
      JSON.stringify({ v: 1, id: named, channel: 'slack', chatId: 'C042', card: 'torn' }),
    );
    const torn = newApprovalId();
    await writeFile(join(dir, `${torn}.json`), '{"v":1,"channel":"telegram","chatId":');
    const damaged = await store.setAsideDamaged();
    expect(damaged).toEqual(
      expect.arrayContaining([
        { file: join(dir, `${named}.json`), chat: { channel: 'slack', chatId: 'C042' } },
        { file: join(dir, `${torn}.json`), chat: null },
      ]),
    );
    expect(damaged).toHaveLength(2);
    expect((await readdir(dir)).sort()).toEqual(
      [`${whole.id}.json`, `${named}.json.damaged`, `${torn}.json.damaged`].sort(),
    );
    expect((await store.list()).map((p) => p.id)).toEqual([whole.id]);
    expect(JSON.parse(await readFile(join(dir, `${named}.json.damaged`), 'utf8'))).toMatchObject({
      chatId: 'C042',
    });
  });
});

describe('message refs', () => {
  it('a ref that comes back after the press does not bring the card back', async () => {
    const store = createApprovalStore(dir);
    const pending = samplePending();
    await store.put(pending);
    expect((await store.take(pending.id, 'telegram:42', [])).kind).toBe('taken');
    await store.setMessageRef(pending.id, { chatId: 42, messageId: 7 });
    expect(await store.list()).toEqual([]);
    expect(await readdir(dir)).toEqual([`${pending.id}.taken`]);
  });

  it('a ref for an id that is not an approval id touches no file, even a card one level up', async () => {
    const store = createApprovalStore(dir);
    await store.put(samplePending());
    const outside = join(dir, '..', 'outside.json');
    const text = `${JSON.stringify(samplePending())}\n`;
    await writeFile(outside, text);
    await store.setMessageRef('../outside', { chatId: 1, messageId: 2 });
    expect(await readFile(outside, 'utf8')).toBe(text);
  });
});
