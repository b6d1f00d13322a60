import { mkdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fsDelete } from '../../executors/fs-delete.ts';
import { fsGrep } from '../../executors/fs-grep.ts';
import { fsRead } from '../../executors/fs-read.ts';
import { fsWrite } from '../../executors/fs-write.ts';
import { PathOutsideBoundary } from '../../runtime/errors.ts';
import { makeContext, makeTempDir } from './make-context.ts';

describe('run-time boundary check', () => {
  it('refuses a write outside roots.write, writing nothing', async () => {
    const workspace = await makeTempDir('ws-');
    const outside = await makeTempDir('outside-');
    const ctx = await makeContext({ roots: { write: [workspace] } });
    await expect(
      fsWrite.run({ path: join(outside, 'x'), content: 'x' }, ctx),
    ).rejects.toBeInstanceOf(PathOutsideBoundary);
    await expect(readFile(join(outside, 'x'))).rejects.toMatchObject({ code: 'ENOENT' });
    await fsWrite.run({ path: join(workspace, 'new', 'x'), content: 'ok', create_dirs: true }, ctx);
    expect(await readFile(join(workspace, 'new', 'x'), 'utf8')).toBe('ok');
  });

  it('refuses a write through a symlink that leads out of the roots', async () => {
    const workspace = await makeTempDir('ws-');
    const outside = await makeTempDir('outside-');
    await writeFile(join(outside, 'target'), 'original');
    await symlink(join(outside, 'target'), join(workspace, 'file-link'));
    await symlink(outside, join(workspace, 'dir-link'));
    const ctx = await makeContext({ roots: { write: [workspace] } });
    const viaFile = fsWrite.run({ path: join(workspace, 'file-link'), content: 'x' }, ctx);
    await expect(viaFile).rejects.toThrow(/really .*outside-/);
    const viaDir = fsWrite.run({ path: join(workspace, 'dir-link', 'new'), content: 'x' }, ctx);
    await expect(viaDir).rejects.toBeInstanceOf(PathOutsideBoundary);
    expect(await readFile(join(outside, 'target'), 'utf8')).toBe('original');
  });

  it('lets fs_delete remove a link that points out, leaving its target', async () => {
    const workspace = await makeTempDir('ws-');
    const outside = await makeTempDir('outside-');
    await writeFile(join(outside, 'target'), 'keep');
    await symlink(join(outside, 'target'), join(workspace, 'link'));
    const ctx = await makeContext({ roots: { write: [workspace] } });
    await fsDelete.run({ path: join(workspace, 'link') }, ctx);
    await expect(readlink(join(workspace, 'link'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readFile(join(outside, 'target'), 'utf8')).toBe('keep');
    await expect(fsDelete.run({ path: join(outside, 'target') }, ctx)).rejects.toBeInstanceOf(
      PathOutsideBoundary,
    );
  });

  it('checks reads only when roots.read is configured', async () => {
    const workspace = await makeTempDir('ws-');
    const outside = await makeTempDir('outside-');
    await writeFile(join(outside, 'f'), 'text');
    const open = await makeContext();
    expect((await fsRead.run({ path: join(outside, 'f') }, open)).content).toBe('text');
    const scoped = await makeContext({ roots: { read: [workspace] } });
    await expect(fsRead.run({ path: join(outside, 'f') }, scoped)).rejects.toBeInstanceOf(
      PathOutsideBoundary,
    );
  });

  it('fs_grep does not follow a symlink to a file outside the tree', async () => {
    const workspace = await makeTempDir('ws-');
    const outside = await makeTempDir('outside-');
    await writeFile(join(outside, 'id_rsa'), 'PRIVATE KEY');
    await mkdir(join(workspace, 'src'));
    await writeFile(join(workspace, 'src', 'a.txt'), 'PRIVATE notes');
    await symlink(join(outside, 'id_rsa'), join(workspace, 'src', 'key'));
    const ctx = await makeContext();
    const result = await fsGrep.run({ pattern: 'PRIVATE', path: workspace }, ctx);
    expect(result.matches).toEqual(['src/a.txt:1:PRIVATE notes']);
  });
});
