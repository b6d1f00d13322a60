import {
  chmod,
  lstat,
  mkdir,
  readdir,
  readFile,
  stat,
  symlink,
  truncate,
  writeFile,
} from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fsList, maxListEntries } from '../../executors/fs-list.ts';
import { fsMkdir } from '../../executors/fs-mkdir.ts';
import { fsRead } from '../../executors/fs-read.ts';
import { fsWrite } from '../../executors/fs-write.ts';
import { maxTextFileBytes } from '../../executors/text-file.ts';
import {
  InvalidArguments,
  NotFound,
  OutputSizeLimitExceeded,
  PermissionDenied,
} from '../../runtime/errors.ts';
import { makeContext, makeTempDir } from './make-context.ts';

describe('fs_read', () => {
  it('reads a file by absolute, ~ and relative path', async () => {
    const ctx = await makeContext();
    const dir = await makeTempDir();
    await writeFile(join(dir, 'a.txt'), 'one\ntwo\nthree');
    const name = basename(dir);
    for (const path of [
      join(dir, 'a.txt'),
      `~/${name}/a.txt`,
      `$HOME/${name}/a.txt`,
      `${name}/a.txt`,
    ]) {
      const result = await fsRead.run({ path }, ctx);
      expect(result).toMatchObject({
        path: join(dir, 'a.txt'),
        content: 'one\ntwo\nthree',
        truncated: false,
      });
    }
  });

  it('selects lines with offset and limit', async () => {
    const ctx = await makeContext();
    const dir = await makeTempDir();
    await writeFile(join(dir, 'a.txt'), 'one\ntwo\nthree\nfour');
    const result = await fsRead.run({ path: join(dir, 'a.txt'), offset: 2, limit: 2 }, ctx);
    expect(result.content).toBe('two\nthree');
    expect(result.total_lines).toBe(4);
  });

  it('cuts content at the output cap and flags it', async () => {
    const ctx = await makeContext({ sandbox: { output_cap_bytes: 10 } });
    const dir = await makeTempDir();
    await writeFile(join(dir, 'big.txt'), 'x'.repeat(100));
    const result = await fsRead.run({ path: join(dir, 'big.txt') }, ctx);
    expect(result).toMatchObject({ content: 'x'.repeat(10), truncated: true });
  });

  it('refuses a file too large to load, with OutputSizeLimitExceeded', async () => {
    const ctx = await makeContext();
    const dir = await makeTempDir();
    // A sparse file: large by size, nothing written to disk.
    await writeFile(join(dir, 'huge.log'), '');
    await truncate(join(dir, 'huge.log'), maxTextFileBytes + 1);
    await expect(fsRead.run({ path: join(dir, 'huge.log') }, ctx)).rejects.toBeInstanceOf(
      OutputSizeLimitExceeded,
    );
  });

  it('refuses a binary file instead of returning garbage', async () => {
    const ctx = await makeContext();
    const dir = await makeTempDir();
    await writeFile(join(dir, 'x.bin'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1]));
    await expect(fsRead.run({ path: join(dir, 'x.bin') }, ctx)).rejects.toThrow(/binary file/);
  });

  it('maps a missing file to NotFound and a directory to InvalidArguments', async () => {
    const ctx = await makeContext();
    const dir = await makeTempDir();
    await expect(fsRead.run({ path: join(dir, 'nope') }, ctx)).rejects.toBeInstanceOf(NotFound);
    await expect(fsRead.run({ path: dir }, ctx)).rejects.toBeInstanceOf(InvalidArguments);
  });

  it('rejects unknown args in its schema', () => {
    expect(fsRead.args.safeParse({ path: 'a', extra: 1 }).success).toBe(false);
    expect(fsRead.args.safeParse({ path: null }).success).toBe(false);
  });
});

describe('fs_write', () => {
  it('creates and replaces a file atomically, leaving no temp file behind', async () => {
    const ctx = await makeContext();
    const dir = await makeTempDir();
    const path = join(dir, 'note.md');
    expect(await fsWrite.run({ path, content: 'first' }, ctx)).toEqual({
      path,
      bytes: 5,
      created: true,
    });
    await chmod(path, 0o640);
    expect(await fsWrite.run({ path, content: 'second' }, ctx)).toMatchObject({ created: false });
    expect(await readFile(path, 'utf8')).toBe('second');
    expect((await stat(path)).mode & 0o777).toBe(0o640);
    expect(await readdir(dir)).toEqual(['note.md']);
  });

  it('writes through a symlink, keeping the link', async () => {
    const ctx = await makeContext();
    const dir = await makeTempDir();
    await writeFile(join(dir, 'real.txt'), 'old');
    await symlink(join(dir, 'real.txt'), join(dir, 'link.txt'));
    await fsWrite.run({ path: join(dir, 'link.txt'), content: 'new' }, ctx);
    expect(await readFile(join(dir, 'real.txt'), 'utf8')).toBe('new');
    expect((await lstat(join(dir, 'link.txt'))).isSymbolicLink()).toBe(true);
  });

  it('maps EACCES to PermissionDenied and leaves nothing behind', async () => {
    const ctx = await makeContext({ roots: { write: ['/sys'] } });
    // sysfs refuses new files even to root: a real EACCES without dropping privileges.
    await expect(
      fsWrite.run({ path: '/sys/custode-test', content: 'x' }, ctx),
    ).rejects.toBeInstanceOf(PermissionDenied);
  });

  it('needs create_dirs for a missing parent, and then creates it', async () => {
    const ctx = await makeContext();
    const dir = await makeTempDir();
    const path = join(dir, 'a', 'b', 'c.txt');
    await expect(fsWrite.run({ path, content: 'x' }, ctx)).rejects.toBeInstanceOf(NotFound);
    await fsWrite.run({ path, content: 'x', create_dirs: true }, ctx);
    expect(await readFile(path, 'utf8')).toBe('x');
  });

  it('refuses to replace a directory', async () => {
    const ctx = await makeContext();
    const dir = await makeTempDir();
    await expect(fsWrite.run({ path: dir, content: 'x' }, ctx)).rejects.toBeInstanceOf(
      InvalidArguments,
    );
    expect((await stat(dir)).isDirectory()).toBe(true);
  });
});

describe('fs_list', () => {
  it('lists sorted entries and marks directories with a trailing slash', async () => {
    const ctx = await makeContext();
    const dir = await makeTempDir();
    await mkdir(join(dir, 'sub'));
    await writeFile(join(dir, 'b.txt'), '');
    await writeFile(join(dir, 'a.txt'), '');
    await symlink(join(dir, 'a.txt'), join(dir, 'link'));
    expect(await fsList.run({ path: dir }, ctx)).toEqual({
      path: dir,
      entries: ['a.txt', 'b.txt', 'link', 'sub/'],
      truncated: false,
    });
  });

  it('cuts a very long listing and flags it', async () => {
    const ctx = await makeContext();
    const dir = await makeTempDir();
    await Promise.all(
      Array.from({ length: maxListEntries + 1 }, (_, i) =>
        writeFile(join(dir, `f${String(i).padStart(5, '0')}`), ''),
      ),
    );
    const result = await fsList.run({ path: dir }, ctx);
    expect(result.entries).toHaveLength(maxListEntries);
    expect(result.entries[0]).toBe('f00000');
    expect(result.truncated).toBe(true);
  });

  it('fails with NotFound for a missing directory and InvalidArguments for a file', async () => {
    const ctx = await makeContext();
    const dir = await makeTempDir();
    await writeFile(join(dir, 'f'), '');
    await expect(fsList.run({ path: join(dir, 'missing') }, ctx)).rejects.toBeInstanceOf(NotFound);
    await expect(fsList.run({ path: join(dir, 'f') }, ctx)).rejects.toBeInstanceOf(
      InvalidArguments,
    );
  });
});

describe('fs_mkdir', () => {
  it('creates nested directories and reports whether it created anything', async () => {
    const ctx = await makeContext();
    const dir = await makeTempDir();
    const path = join(dir, 'x', 'y');
    expect(await fsMkdir.run({ path }, ctx)).toEqual({ path, created: true });
    expect((await stat(path)).isDirectory()).toBe(true);
    expect(await fsMkdir.run({ path }, ctx)).toEqual({ path, created: false });
  });
});
