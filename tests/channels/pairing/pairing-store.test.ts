// The pairing file shared by the daemon and `custode pair`: codes, expiry, approval,
// revocation, the first format, a corrupt file, and writers in parallel.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  createPairingStore,
  PairingFileCorrupt,
  REQUEST_TTL_MS,
  type PairingStore,
} from '../../../channels/pairing/pairing-store.ts';

let file: string;
let store: PairingStore;

beforeEach(async () => {
  file = join(await mkdtemp(join(process.env.HOME ?? '', 'pairing-')), 'telegram', 'paired.json');
  store = createPairingStore(file);
});

/** A stranger's code, who is not paired (request's null would fail the test). */
async function strangerCode(id: string, now: Date): Promise<{ code: string; fresh: boolean }> {
  const asked = await store.request(id, 'Ann @ann', now);
  if (asked === null) throw new Error(`${id} is paired already`);
  return asked;
}

describe('pairing store', () => {
  it('gives one code per stranger until it expires, and approves it once, in any case', async () => {
    const now = new Date('2026-01-01T10:00:00Z');
    const first = await strangerCode('42', now);
    expect(first).toMatchObject({ fresh: true });
    expect(first.code).toMatch(/^[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}$/);
    expect(await store.request('42', 'Ann @ann', now)).toEqual({ ...first, fresh: false });
    const later = new Date(now.getTime() + REQUEST_TTL_MS + 1);
    expect(await store.approve(first.code, later)).toBeNull();
    const second = await strangerCode('42', later);
    expect(second.fresh).toBe(true);
    expect(await store.isPaired('42')).toBe(false);
    const approved = await store.approve(` ${second.code.toLowerCase().replace('-', '')} `, later);
    expect(approved).toEqual({ id: '42', label: 'Ann @ann', paired_at: later.toISOString() });
    expect(await store.isPaired('42')).toBe(true);
    expect(await store.approve(second.code, later)).toBeNull();
    expect((await store.read(later)).requests).toEqual([]);
  });

  it('keeps no code for someone paired while their message waited', async () => {
    expect(await store.request('42', 'Ann @ann')).toMatchObject({ fresh: true });
    expect(await store.add('42', 'Ann @ann')).toBe(true);
    expect(await store.request('42', 'Ann @ann')).toBeNull();
    expect(await store.read()).toMatchObject({ users: [{ id: '42' }], requests: [] });
  });

  it('revokes a paired user, and says when there was nobody to revoke', async () => {
    expect(await store.add('7')).toBe(true);
    expect(await store.add('7')).toBe(false);
    expect(await store.revoke('7')).toBe(true);
    expect(await store.isPaired('7')).toBe(false);
    expect(await store.revoke('7')).toBe(false);
  });

  it('reads the first format (Telegram ids as numbers)', async () => {
    await store.add('1');
    await writeFile(file, JSON.stringify({ v: 1, users: [5, 6] }));
    expect(await store.isPaired('6')).toBe(true);
    expect((await store.read()).users.map((user) => user.id)).toEqual(['5', '6']);
  });

  it('pairs nobody from a corrupt file and never overwrites it', async () => {
    await store.add('1');
    await writeFile(file, '{"v": 2, "users": "everyone"}');
    expect(await store.isPaired('1')).toBe(false);
    await expect(store.request('2')).rejects.toThrow(PairingFileCorrupt);
    await expect(store.read()).rejects.toThrow('is not a valid pairing file. Fix:');
    expect(await readFile(file, 'utf8')).toBe('{"v": 2, "users": "everyone"}');
  });

  it('loses no request when many strangers write at once, and keeps at most twenty', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => String(i));
    await Promise.all(ids.map((id) => createPairingStore(file).request(id)));
    expect((await store.read()).requests.map((r) => r.id).sort()).toEqual([...ids].sort());
    for (let i = 12; i < 30; i += 1) await store.request(String(i));
    const kept = (await store.read()).requests.map((r) => r.id);
    expect(kept).toHaveLength(20);
    expect(kept.at(-1)).toBe('29');
  });
});
