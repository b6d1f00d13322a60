// The scope stage's file-system questions never throw: what cannot be looked at is not there.
import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRealPath, entryExists, isDirectory } from '../../../executors/ops/real-path.ts';
import { makeTempDir } from '../make-context.ts';

describe('real-path ops', () => {
  it('answer for a file used as a directory (ENOTDIR) and a symlink loop instead of throwing', async () => {
    const dir = await makeTempDir('rp-');
    await writeFile(join(dir, 'file.txt'), 'x');
    await symlink(join(dir, 'loop'), join(dir, 'loop'));
    const realPath = createRealPath();
    for (const path of [join(dir, 'file.txt', 'x'), join(dir, 'loop', 'x')]) {
      expect(realPath(path)).toBeNull();
      expect(entryExists(path)).toBe(false);
      expect(isDirectory(path)).toBe(false);
    }
    expect(entryExists(join(dir, 'loop'))).toBe(true);
    expect(realPath(join(dir, 'file.txt'))).toBe(join(dir, 'file.txt'));
    expect(isDirectory(dir)).toBe(true);
  });
});
