// State files on a full disk (a 64 KiB tmpfs, mounted when the tests run as root): a write
// fails with its cause, leaves no temp file and no half line behind.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appendWhole, unwritableDirs, writeFileAtomic } from '../runtime/state-store.ts';

function tinyTmpfs(): string | null {
  if (process.getuid?.() !== 0) return null;
  const dir = mkdtempSync(join(process.env.HOME ?? '', 'full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    return null;
  }
}

const full = tinyTmpfs();
afterAll(() => {
  if (full !== null) execFileSync('umount', [full]);
});

describe.skipIf(full === null)('on a full disk (needs root to mount a tiny tmpfs)', () => {
  it('fails with ENOSPC and leaves no temp file behind', async () => {
    const dir = full ?? '';
    await expect(
      writeFileAtomic(join(dir, 'big.json'), 'x'.repeat(256 * 1024)),
    ).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('appends whole lines or none: a line the disk refuses part way is cut back out', async () => {
    const file = join(full ?? '', 'turns.jsonl');
    await appendWhole(file, '{"kept":true}\n');
    await expect(appendWhole(file, `${'x'.repeat(128 * 1024)}\n`)).rejects.toMatchObject({
      code: 'ENOSPC',
    });
    expect(readFileSync(file, 'utf8')).toBe('{"kept":true}\n');
    rmSync(file);
  });

  it('is reported as unwritable once nothing fits', async () => {
    const dir = full ?? '';
    let filled = false;
    for (let n = 0; n < 64 && !filled; n += 1)
      filled = await writeFileAtomic(join(dir, `filler-${String(n)}`), 'x'.repeat(4096)).then(
        () => false,
        () => true,
      );
    expect(filled).toBe(true);
    expect(await unwritableDirs([dir])).toEqual([`the disk is full (ENOSPC) at ${dir}`]);
  });
});
