import { lstat, mkdir, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fsDelete } from '../../executors/fs-delete.ts';
import { InvalidArguments, NotFound, PermissionDenied } from '../../runtime/errors.ts';
import { makeContext, makeTempDir } from './make-context.ts';

const exists = (path: string): Promise<boolean> =>
  lstat(path).then(
    () => true,
    () => false,
  );

describe('fs_delete', () => {
  it('deletes a file and an empty directory', async () => {
    const ctx = await makeContext();
    const dir = await makeTempDir();
    await writeFile(join(dir, 'f'), 'x');
    await mkdir(join(dir, 'empty'));
    expect(await fsDelete.run({ path: join(dir, 'f') }, ctx)).toMatchObject({ deleted: 'file' });
    expect(await fsDelete.run({ path: join(dir, 'empty') }, ctx)).toMatchObject({
      deleted: 'directory',
    });
    expect(await exists(join(dir, 'f'))).toBe(false);
    expect(await exists(join(dir, 'empty'))).toBe(false);
  });

  it('refuses a non-empty directory unless recursive, and then removes it all', async () => {
    const ctx = await makeContext();
    const dir = await makeTempDir();
    await mkdir(join(dir, 'full', 'deep'), { recursive: true });
    await writeFile(join(dir, 'full', 'deep', 'f'), 'x');
    await expect(fsDelete.run({ path: join(dir, 'full') }, ctx)).rejects.toThrow(/recursive: true/);
    await expect(fsDelete.run({ path: join(dir, 'full') }, ctx)).rejects.toBeInstanceOf(
      InvalidArguments,
    );
    expect(await exists(join(dir, 'full', 'deep', 'f'))).toBe(true);
    await fsDelete.run({ path: join(dir, 'full'), recursive: true }, ctx);
    expect(await exists(join(dir, 'full'))).toBe(false);
  });

  it('removes a symlink to a directory, never its target', async () => {
    const ctx = await makeContext();
    const dir = await makeTempDir();
    await mkdir(join(dir, 'target'));
    await writeFile(join(dir, 'target', 'keep'), 'x');
    await symlink(join(dir, 'target'), join(dir, 'link'));
    expect(await fsDelete.run({ path: join(dir, 'link'), recursive: true }, ctx)).toMatchObject({
      deleted: 'file',
    });
    expect((await stat(join(dir, 'target', 'keep'))).isFile()).toBe(true);
  });

  it('maps EPERM to PermissionDenied', async () => {
    const ctx = await makeContext({ roots: { write: ['/proc'] } });
    // procfs refuses unlink even to root: a real EPERM.
    await expect(fsDelete.run({ path: '/proc/version' }, ctx)).rejects.toBeInstanceOf(
      PermissionDenied,
    );
  });

  it('maps a missing path to NotFound', async () => {
    const ctx = await makeContext();
    const dir = await makeTempDir();
    await expect(fsDelete.run({ path: join(dir, 'gone') }, ctx)).rejects.toBeInstanceOf(NotFound);
  });
});
