import { mkdtemp, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApprovalStore, isApprovalId, newApprovalId } from '../../runtime/approvals/store.ts';
import { encodeButton } from '../../runtime/approvals/render.ts';
import { samplePending } from './fixtures.ts';

let dir: string;
beforeEach(async () => {
  dir = join(await mkdtemp(join(process.env.HOME ?? tmpdir(), 'custode-approvals-')), 'approvals');
});

/** A pino logger whose lines land in an array, to assert what was reported. */
function recordingLogger(): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { logger, lines };
}

describe('approval ids', () => {
  it('are 128-bit base64url and fit Telegram callback data', () => {
    const id = newApprovalId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(Buffer.from(id, 'base64url')).toHaveLength(16);
    expect(Buffer.byteLength(encodeButton(id, 'always'))).toBeLessThanOrEqual(64);
    expect(newApprovalId()).not.toBe(id);
    expect(isApprovalId('../../etc/passwd')).toBe(false);
  });
});

describe('createApprovalStore', () => {
  it('persists one versioned file per pending approval and reads it back in a new store', async () => {
    const pending = samplePending();
    await createApprovalStore(dir).put(pending);
    const files = await readdir(dir);
    expect(files).toEqual([`${pending.id}.json`]);
    expect(JSON.parse(await readFile(join(dir, files[0] ?? ''), 'utf8'))).toMatchObject({
      v: 1,
      id: pending.id,
    });
    expect(await createApprovalStore(dir).list()).toEqual([pending]);
  });

  it('lets the sender take it once; a replay answers already_resolved', async () => {
    const store = createApprovalStore(dir);
    const pending = samplePending();
    await store.put(pending);
    expect(await store.take(pending.id, 'telegram:42', [])).toEqual({ kind: 'taken', pending });
    expect(await store.take(pending.id, 'telegram:42', [])).toEqual({ kind: 'already_resolved' });
    expect(await createApprovalStore(dir).take(pending.id, 'telegram:42', [])).toEqual({
      kind: 'already_resolved',
    });
    expect(await store.list()).toEqual([]);
  });

  it('refuses a stranger without consuming the card; an approver may take it', async () => {
    const store = createApprovalStore(dir);
    const pending = samplePending();
    await store.put(pending);
    expect(await store.take(pending.id, 'telegram:7', [])).toEqual({ kind: 'not_yours' });
    expect(await store.list()).toHaveLength(1);
    expect((await store.take(pending.id, 'telegram:9', ['telegram:9'])).kind).toBe('taken');
  });

  it('answers unknown for ids it never issued, including path-like ones', async () => {
    const store = createApprovalStore(dir);
    expect(await store.take(newApprovalId(), 'telegram:42', [])).toEqual({ kind: 'unknown' });
    expect(await store.take('../../etc/passwd', 'telegram:42', [])).toEqual({ kind: 'unknown' });
  });

  it('consumes an expired card as expired and lists it among expired() before that', async () => {
    const store = createApprovalStore(dir);
    const now = new Date('2026-11-21T10:00:00Z');
    const old = samplePending({ now, minutes: 10 });
    const fresh = samplePending({ now, minutes: 60 });
    await store.put(old);
    await store.put(fresh);
    const later = new Date('2026-11-21T10:30:00Z');
    expect((await store.expired(later)).map((p) => p.id)).toEqual([old.id]);
    expect(await store.take(old.id, 'telegram:42', [], later)).toEqual({
      kind: 'expired',
      pending: old,
    });
    expect(await store.take(old.id, 'telegram:42', [], later)).toEqual({
      kind: 'already_resolved',
    });
    expect(await store.expired(later)).toEqual([]);
  });

  it('gives exactly one winner to concurrent presses, also across two store instances', async () => {
    const a = createApprovalStore(dir);
    const b = createApprovalStore(dir);
    const pending = samplePending();
    await a.put(pending);
    const results = await Promise.all([
      ...Array.from({ length: 10 }, () => a.take(pending.id, 'telegram:42', [])),
      ...Array.from({ length: 10 }, () => b.take(pending.id, 'telegram:42', [])),
    ]);
    expect(results.filter((r) => r.kind === 'taken')).toHaveLength(1);
    expect(results.filter((r) => r.kind === 'already_resolved')).toHaveLength(19);
  });

  it('records the message ref of a posted card', async () => {
    const store = createApprovalStore(dir);
    const pending = samplePending();
    await store.put(pending);
    await store.setMessageRef(pending.id, { chatId: 42, messageId: 7 });
    const result = await createApprovalStore(dir).take(pending.id, 'telegram:42', []);
    expect(result.kind === 'taken' ? result.pending.messageRef : null).toEqual({
      chatId: 42,
      messageId: 7,
    });
  });

  it('reports and skips a corrupt file, and keeps serving the others', async () => {
    const { logger, lines } = recordingLogger();
    const store = createApprovalStore(dir, { logger });
    const pending = samplePending();
    await store.put(pending);
    const broken = newApprovalId();
    await writeFile(join(dir, `${broken}.json`), '{"v":1,"id":');
    const wrongVersion = { ...samplePending(), v: 2 };
    await writeFile(join(dir, `${wrongVersion.id}.json`), JSON.stringify(wrongVersion));
    expect((await store.list()).map((p) => p.id)).toEqual([pending.id]);
    expect(lines.filter((l) => l.msg === 'corrupt pending approval skipped')).toHaveLength(2);
    expect(await store.take(broken, 'telegram:42', [])).toEqual({ kind: 'unknown' });
    expect(await readdir(dir)).toContain(`${broken}.json`);
  });

  it('keeps a used card as a small tombstone, not its turn', async () => {
    const store = createApprovalStore(dir);
    const pending = {
      ...samplePending(),
      turnState: { messages: [{ role: 'user', content: 'x'.repeat(50_000) }] },
    };
    await store.put(pending);
    expect((await stat(join(dir, `${pending.id}.json`))).size).toBeGreaterThan(50_000);
    await store.take(pending.id, 'telegram:42', [], new Date('2026-11-23T10:00:00.000Z'));
    expect(JSON.parse(await readFile(join(dir, `${pending.id}.taken`), 'utf8'))).toEqual({
      v: 1,
      id: pending.id,
      takenAt: '2026-11-23T10:00:00.000Z',
    });
    expect(await store.take(pending.id, 'telegram:42', [])).toEqual({ kind: 'already_resolved' });
  });

  it('keeps at most maxTombstones, dropping the oldest at the sweep', async () => {
    const store = createApprovalStore(dir, { maxTombstones: 2 });
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const pending = samplePending();
      ids.push(pending.id);
      await store.put(pending);
      await store.take(pending.id, 'telegram:42', []);
      // Distinct ages: the tombstone written first is the oldest.
      const at = new Date(Date.now() - (4 - i) * 60_000);
      await utimes(join(dir, `${pending.id}.taken`), at, at);
    }
    await store.expired();
    expect((await readdir(dir)).sort()).toEqual(
      ids
        .slice(2)
        .map((id) => `${id}.taken`)
        .sort(),
    );
    expect(await store.take(ids[0] ?? '', 'telegram:42', [])).toEqual({ kind: 'unknown' });
    expect(await store.take(ids[3] ?? '', 'telegram:42', [])).toEqual({
      kind: 'already_resolved',
    });
  });

  it('rejects a record that does not match the schema on put', async () => {
    const store = createApprovalStore(dir);
    await expect(store.put({ ...samplePending(), id: 'short' })).rejects.toThrow();
    expect(await store.list()).toEqual([]);
  });
});
