import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fsEdit } from '../../executors/fs-edit.ts';
import { fsMultiEdit } from '../../executors/fs-multi-edit.ts';
import { InvalidArguments, NotFound } from '../../runtime/errors.ts';
import { makeContext, makeTempDir } from './make-context.ts';

async function fileWith(content: string): Promise<string> {
  const path = join(await makeTempDir(), 'f.txt');
  await writeFile(path, content);
  return path;
}

describe('fs_edit', () => {
  it('replaces the one occurrence', async () => {
    const ctx = await makeContext();
    const path = await fileWith('alpha beta gamma');
    expect(await fsEdit.run({ path, old_text: 'beta', new_text: 'BETA' }, ctx)).toEqual({
      path,
      replaced: 1,
    });
    expect(await readFile(path, 'utf8')).toBe('alpha BETA gamma');
  });

  it('keeps `$&` and other replacement patterns literal', async () => {
    const ctx = await makeContext();
    const path = await fileWith('price: X');
    await fsEdit.run({ path, old_text: 'X', new_text: '$& $1 $$' }, ctx);
    expect(await readFile(path, 'utf8')).toBe('price: $& $1 $$');
  });

  it('refuses zero or several matches and leaves the file untouched', async () => {
    const ctx = await makeContext();
    const path = await fileWith('a-a-b');
    await expect(fsEdit.run({ path, old_text: 'zzz', new_text: 'y' }, ctx)).rejects.toThrow(
      /was not found/,
    );
    await expect(fsEdit.run({ path, old_text: 'a', new_text: 'y' }, ctx)).rejects.toThrow(
      /occurs 2 times/,
    );
    await expect(fsEdit.run({ path, old_text: 'a', new_text: 'y' }, ctx)).rejects.toBeInstanceOf(
      InvalidArguments,
    );
    expect(await readFile(path, 'utf8')).toBe('a-a-b');
  });

  it('maps a missing file to NotFound', async () => {
    const ctx = await makeContext();
    const dir = await makeTempDir();
    await expect(
      fsEdit.run({ path: join(dir, 'none'), old_text: 'a', new_text: 'b' }, ctx),
    ).rejects.toBeInstanceOf(NotFound);
  });
});

describe('fs_multi_edit', () => {
  it('applies every edit in order, each seeing the previous result', async () => {
    const ctx = await makeContext();
    const path = await fileWith('one two three');
    const edits = [
      { old_text: 'one', new_text: '1' },
      { old_text: '1 two', new_text: '1 2' },
    ];
    expect(await fsMultiEdit.run({ path, edits }, ctx)).toEqual({ path, replaced: 2 });
    expect(await readFile(path, 'utf8')).toBe('1 2 three');
  });

  it('applies none when one edit fails, naming the failing edit', async () => {
    const ctx = await makeContext();
    const path = await fileWith('one two three');
    const edits = [
      { old_text: 'one', new_text: '1' },
      { old_text: 'four', new_text: '4' },
    ];
    await expect(fsMultiEdit.run({ path, edits }, ctx)).rejects.toThrow(/edit 2.*was not found/);
    expect(await readFile(path, 'utf8')).toBe('one two three');
    expect(await readdir(join(path, '..'))).toEqual(['f.txt']);
  });

  it('needs at least one edit', () => {
    expect(fsMultiEdit.args.safeParse({ path: 'f', edits: [] }).success).toBe(false);
  });
});
