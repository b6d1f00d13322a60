// The shared walk skips what a project's search should not see: node_modules, and whatever the
// .gitignore files above an entry name (nested ones apply below their own directory only).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fsGlob } from '../../executors/fs-glob.ts';
import { fsGrep } from '../../executors/fs-grep.ts';
import { makeContext, makeTempDir } from './make-context.ts';

async function project(): Promise<string> {
  const dir = await makeTempDir();
  const files: Record<string, string> = {
    '.gitignore': 'build/\n*.log\n',
    'src/.gitignore': '*.gen.ts\n!keep.gen.ts\n',
    'src/a.ts': 'needle\n',
    'src/b.gen.ts': 'needle\n',
    'src/keep.gen.ts': 'needle\n',
    'lib/c.gen.ts': 'needle\n',
    'build/out.js': 'needle\n',
    'debug.log': 'needle\n',
    'node_modules/dep/index.js': 'needle\n',
  };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

describe('walk: ignore files and node_modules', () => {
  it('fs_grep finds no match in node_modules or in what a .gitignore names', async () => {
    const ctx = await makeContext();
    const dir = await project();
    const result = await fsGrep.run({ pattern: 'needle', path: dir }, ctx);
    expect([...result.matches].sort()).toEqual([
      'lib/c.gen.ts:1:needle',
      'src/a.ts:1:needle',
      'src/keep.gen.ts:1:needle',
    ]);
  });

  it('fs_glob lists node_modules without entering it, and nothing ignored', async () => {
    const ctx = await makeContext();
    const dir = await project();
    expect((await fsGlob.run({ pattern: '*', path: dir }, ctx)).matches).toEqual([
      '.gitignore',
      'lib/',
      'node_modules/',
      'src/',
    ]);
    expect((await fsGlob.run({ pattern: '**/*.js', path: dir }, ctx)).matches).toEqual([]);
  });
});
