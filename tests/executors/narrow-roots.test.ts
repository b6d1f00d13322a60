import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fsDelete } from '../../executors/fs-delete.ts';
import { fsEdit } from '../../executors/fs-edit.ts';
import { fsMkdir } from '../../executors/fs-mkdir.ts';
import { fsMultiEdit } from '../../executors/fs-multi-edit.ts';
import { fsRead } from '../../executors/fs-read.ts';
import { fsWrite } from '../../executors/fs-write.ts';
import { shellExec } from '../../executors/shell-exec.ts';
import { PathOutsideBoundary } from '../../runtime/errors.ts';
import { makeContext, makeTempDir, tierGrant } from './make-context.ts';
import { exists } from '../helpers/exists.ts';

/** A workspace in roots.write holding one file, and a context narrowed to `writable`. */
async function narrowed(writable: (work: string) => readonly string[]) {
  const work = await makeTempDir('ws-');
  const file = join(work, 'f.txt');
  await writeFile(file, 'one two\n');
  const base = await makeContext({ roots: { write: [work] } });
  return { work, file, ctx: { ...base, grant: tierGrant(writable(work)) } };
}

describe("an uncarded tier's grant replaces roots.write for one call", () => {
  it('refuses every writing fs executor when the call may write nothing, changing nothing', async () => {
    const { work, file, ctx } = await narrowed(() => []);
    const attempts = [
      () => fsWrite.run({ path: file, content: 'x' }, ctx),
      () => fsWrite.run({ path: join(work, 'new.txt'), content: 'x' }, ctx),
      () => fsEdit.run({ path: file, old_text: 'one', new_text: '1' }, ctx),
      () => fsMultiEdit.run({ path: file, edits: [{ old_text: 'two', new_text: '2' }] }, ctx),
      () => fsMkdir.run({ path: join(work, 'dir') }, ctx),
      () => fsDelete.run({ path: file }, ctx),
    ];
    for (const attempt of attempts) {
      await expect(attempt()).rejects.toThrow(PathOutsideBoundary);
    }
    await expect(fsWrite.run({ path: file, content: 'x' }, ctx)).rejects.toThrow(
      /may write only what its decision names/,
    );
    expect(await readFile(file, 'utf8')).toBe('one two\n');
    expect(await exists(join(work, 'new.txt'))).toBe(false);
    expect(await exists(join(work, 'dir'))).toBe(false);
    expect(await fsRead.run({ path: file }, ctx)).toMatchObject({ content: 'one two\n' });
  });

  it('lets a call write inside the paths it was given and nowhere else in the roots', async () => {
    const { work, file, ctx } = await narrowed((dir) => [join(dir, 'out')]);
    await mkdir(join(work, 'out'));
    await fsWrite.run({ path: join(work, 'out', 'a.txt'), content: 'a' }, ctx);
    expect(await readFile(join(work, 'out', 'a.txt'), 'utf8')).toBe('a');
    await expect(fsWrite.run({ path: file, content: 'x' }, ctx)).rejects.toThrow(
      PathOutsideBoundary,
    );
    const shell = await shellExec.run(
      { command: `touch ${join(work, 'out', 'b')} && touch ${join(work, 'c')}`, cwd: work },
      ctx,
    );
    expect(shell.exit_code).not.toBe(0);
    expect(shell.stderr).toMatch(/Read-only file system/);
    expect(await exists(join(work, 'out', 'b'))).toBe(true);
    expect(await exists(join(work, 'c'))).toBe(false);
  });

  it("with a person's grant, shell_exec writes the configured roots as before", async () => {
    const work = await makeTempDir('ws-');
    const ctx = await makeContext({ roots: { write: [work] } });
    const shell = await shellExec.run({ command: `touch ${join(work, 'made')}` }, ctx);
    expect(shell).toMatchObject({ exit_code: 0, sandbox: 'bwrap' });
    expect(await exists(join(work, 'made'))).toBe(true);
  });
});
