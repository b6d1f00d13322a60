import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fsGlob } from '../../executors/fs-glob.ts';
import { fsGrep } from '../../executors/fs-grep.ts';
import { createFileSearcher } from '../../executors/search-worker.ts';
import { ExecutorTimeout, InvalidArguments, NotFound } from '../../runtime/errors.ts';
import { makeContext, makeTempDir } from './make-context.ts';

async function tree(): Promise<string> {
  const dir = await makeTempDir();
  await mkdir(join(dir, 'src', 'deep'), { recursive: true });
  await mkdir(join(dir, '.git'));
  await writeFile(join(dir, 'README.md'), '# Title\nTODO: write docs\n');
  await writeFile(join(dir, 'src', 'a.ts'), 'const a = 1;\n// todo lower\n// TODO upper\n');
  await writeFile(join(dir, 'src', 'deep', 'b.ts'), 'export const TODO = true;\n');
  await writeFile(join(dir, 'src', 'blob.bin'), Buffer.from([0x54, 0x4f, 0x44, 0x4f, 0, 1, 2]));
  await writeFile(join(dir, '.git', 'HEAD'), 'TODO in git internals\n');
  return dir;
}

describe('fs_grep', () => {
  it('returns path:line:text with paths relative to the searched directory', async () => {
    const ctx = await makeContext();
    const dir = await tree();
    const result = await fsGrep.run({ pattern: 'TODO', path: dir }, ctx);
    expect([...result.matches].sort()).toEqual([
      'README.md:2:TODO: write docs',
      'src/a.ts:3:// TODO upper',
      'src/deep/b.ts:1:export const TODO = true;',
    ]);
    expect(result.truncated).toBe(false);
  });

  it('filters by glob, ignores case on request and searches a single file', async () => {
    const ctx = await makeContext();
    const dir = await tree();
    const ts = await fsGrep.run(
      { pattern: 'todo', path: dir, glob: '*.ts', ignore_case: true },
      ctx,
    );
    expect([...ts.matches].sort()).toEqual([
      'src/a.ts:2:// todo lower',
      'src/a.ts:3:// TODO upper',
      'src/deep/b.ts:1:export const TODO = true;',
    ]);
    const one = await fsGrep.run({ pattern: '^#', path: join(dir, 'README.md') }, ctx);
    expect(one.matches).toEqual([`${join(dir, 'README.md')}:1:# Title`]);
  });

  it('stops at max_results and flags truncation', async () => {
    const ctx = await makeContext();
    const dir = await tree();
    const result = await fsGrep.run({ pattern: 'TODO', path: dir, max_results: 1 }, ctx);
    expect(result.matches).toHaveLength(1);
    expect(result.truncated).toBe(true);
  });

  it('keeps walk order and the limit across the batches the worker searches', async () => {
    const ctx = await makeContext();
    const dir = await makeTempDir();
    // 600 files: more than two batches of paths for the search worker.
    const names = Array.from({ length: 600 }, (_, i) => `f${String(i).padStart(3, '0')}.txt`);
    await Promise.all(names.map((name, i) => writeFile(join(dir, name), `x\nhit ${String(i)}\n`)));
    const all = await fsGrep.run({ pattern: '^hit', path: dir, max_results: 10_000 }, ctx);
    expect(all.matches).toEqual(names.map((name, i) => `${name}:2:hit ${String(i)}`));
    expect(all.truncated).toBe(false);
    const cut = await fsGrep.run({ pattern: '^hit', path: dir, max_results: 300 }, ctx);
    expect(cut.matches).toEqual(all.matches.slice(0, 300));
    expect(cut.truncated).toBe(true);
  });

  it('withholds a file with a matching line whole when its text holds a credential, in any batch of either worker', async () => {
    const ctx = await makeContext();
    const dir = await makeTempDir();
    const names = Array.from({ length: 800 }, (_, i) => `f${String(i).padStart(3, '0')}.txt`);
    // One file in each of the four batches holds a token on a line the pattern does not match.
    const secret = new Set([10, 300, 555, 790]);
    const token = 'ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789';
    await Promise.all(
      names.map((name, i) =>
        writeFile(
          join(dir, name),
          `hit ${String(i)}
${
  secret.has(i)
    ? `t=${token}
`
    : ''
}`,
        ),
      ),
    );
    const result = await fsGrep.run({ pattern: '^hit', path: dir, max_results: 10_000 }, ctx);
    expect(result.matches).toEqual(
      names.flatMap((name, i) => (secret.has(i) ? [] : [`${name}:1:hit ${String(i)}`])),
    );
    expect(result).toMatchObject({ credentials_withheld: secret.size });
    // A search none of their lines matches shows nothing of them, and counts only what it left out.
    const other = await fsGrep.run({ pattern: '^nothing', path: dir }, ctx);
    expect(other.matches).toEqual([]);
  });

  it('skips a FIFO without hanging, and a link put where the walk saw a file', async () => {
    const ctx = await makeContext({ sandbox: { default_timeout_ms: 5_000 } });
    const dir = await tree();
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    const result = await fsGrep.run({ pattern: 'TODO', path: dir }, ctx);
    expect(result.matches).toHaveLength(3);
    // The worker opens what it was given without following a link.
    const searcher = createFileSearcher({
      pattern: 'TODO',
      flags: '',
      deadline: Date.now() + 5_000,
      maxFileBytes: 1024,
      maxLineChars: 100,
    });
    try {
      await symlink(join(dir, 'README.md'), join(dir, 'link.md'));
      expect(await searcher.search([join(dir, 'link.md'), join(dir, 'README.md')], 10)).toEqual([
        [],
        [[2, 'TODO: write docs']],
      ]);
    } finally {
      await searcher.close();
    }
  });

  it('refuses a bad regular expression and a missing root with typed errors', async () => {
    const ctx = await makeContext();
    const dir = await tree();
    await expect(fsGrep.run({ pattern: '(', path: dir }, ctx)).rejects.toBeInstanceOf(
      InvalidArguments,
    );
    await expect(fsGrep.run({ pattern: 'x', path: join(dir, 'no') }, ctx)).rejects.toBeInstanceOf(
      NotFound,
    );
  });
});

describe('fs_grep with a catastrophic pattern', () => {
  it('gives up with ExecutorTimeout while the event loop keeps running', async () => {
    const ctx = await makeContext({ sandbox: { default_timeout_ms: 500 } });
    const dir = await makeTempDir();
    await writeFile(join(dir, 'a.txt'), `${'a'.repeat(40)}!\n`);
    const order: string[] = [];
    const grep = fsGrep.run({ pattern: '^(a+)+$', path: dir }, ctx).catch((error: unknown) => {
      order.push('grep settled');
      throw error;
    });
    // A blocked main thread would run this timer only after the grep.
    await new Promise((resolve) => setTimeout(resolve, 20));
    order.push('timer fired');
    await expect(grep).rejects.toBeInstanceOf(ExecutorTimeout);
    expect(order).toEqual(['timer fired', 'grep settled']);
    // The stuck worker is gone, not kept: the next search runs on a fresh one.
    await writeFile(join(dir, 'b.txt'), 'found\n');
    expect((await fsGrep.run({ pattern: 'found', path: dir }, ctx)).matches).toEqual([
      'b.txt:1:found',
    ]);
  });
});

describe('search workers kept between searches', () => {
  const options = {
    deadline: Date.now() + 60_000,
    flags: '',
    maxFileBytes: 1024,
    maxLineChars: 100,
  };

  it('answer each search with its own pattern, even one closed with an answer owed', async () => {
    const dir = await makeTempDir();
    const a = join(dir, 'a.txt');
    await writeFile(a, 'alpha\nbeta\n');
    const first = createFileSearcher({ ...options, pattern: 'alpha' });
    expect(await first.search([a], 10)).toEqual([[[1, 'alpha']]]);
    // Closed with a batch still in the worker: that answer must not reach the next search.
    const owed = first.search([a], 10);
    owed.catch(() => undefined);
    await first.close();
    for (const pattern of ['beta', 'alpha|beta', '^$']) {
      const next = createFileSearcher({ ...options, pattern });
      try {
        const expected = {
          beta: [[2, 'beta']],
          'alpha|beta': [
            [1, 'alpha'],
            [2, 'beta'],
          ],
          '^$': [[3, '']],
        }[pattern];
        expect(await next.search([a], 10)).toEqual([expected]);
      } finally {
        await next.close();
      }
    }
  });
});

describe('fs_glob', () => {
  it('returns sorted paths relative to the root', async () => {
    const ctx = await makeContext();
    const dir = await tree();
    expect((await fsGlob.run({ pattern: '**/*.ts', path: dir }, ctx)).matches).toEqual([
      'src/a.ts',
      'src/deep/b.ts',
    ]);
    expect((await fsGlob.run({ pattern: '*', path: dir }, ctx)).matches).toEqual([
      '.git/',
      'README.md',
      'src/',
    ]);
    expect((await fsGlob.run({ pattern: 'src/*.{ts,bin}', path: dir }, ctx)).matches).toEqual([
      'src/a.ts',
      'src/blob.bin',
    ]);
  });

  it('defaults the root to ~ and flags truncation', async () => {
    const ctx = await makeContext();
    const dir = await tree();
    const name = basename(dir);
    const result = await fsGlob.run({ pattern: `${name}/**/*.ts` }, ctx);
    expect(result.matches).toEqual([`${name}/src/a.ts`, `${name}/src/deep/b.ts`]);
    const cut = await fsGlob.run({ pattern: '**', path: dir, max_results: 2 }, ctx);
    expect(cut.matches).toHaveLength(2);
    expect(cut.truncated).toBe(true);
  });

  it('refuses a file as root', async () => {
    const ctx = await makeContext();
    const dir = await tree();
    await expect(
      fsGlob.run({ pattern: '*', path: join(dir, 'README.md') }, ctx),
    ).rejects.toBeInstanceOf(InvalidArguments);
  });
});
