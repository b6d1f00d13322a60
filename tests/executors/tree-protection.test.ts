// The walk behind a tree read's decision: a protected entry below the top (by its name, or a
// link by where it leads), a tree too large to look at, and a file top (no tree at all).
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { treeObstacle } from '../../executors/ops/tree-protection.ts';
import type { Protection } from '../../constitution/protected.ts';
import { makeTempDir } from './make-context.ts';

const netrc = { kind: 'secret' } as unknown as Protection;
const byName = (path: string): Protection | null => (path.endsWith('/.netrc') ? netrc : null);
const none = (): Protection | null => null;
const checks = (
  followed = byName,
  credential: (path: string) => Protection | null = none,
): Parameters<typeof treeObstacle>[1] => ({ plain: byName, followed, credential });

describe('treeObstacle', () => {
  it('finds a protected name deep below the top, and a link by where it leads', async () => {
    const top = await makeTempDir('tree-');
    await mkdir(join(top, 'a', 'b'), { recursive: true });
    await writeFile(join(top, 'a', 'b', 'notes.md'), 'x');
    expect(treeObstacle(top, checks())).toBeNull();
    await writeFile(join(top, 'a', 'b', '.netrc'), 'x');
    expect(treeObstacle(top, checks())).toMatchObject({
      kind: 'protected',
      path: join(top, 'a', 'b', '.netrc'),
    });
    const other = await makeTempDir('tree-');
    await symlink('/somewhere/.netrc', join(other, 'innocent'));
    const followed = (path: string): Protection | null =>
      path.endsWith('innocent') ? netrc : null;
    expect(treeObstacle(other, checks(followed))).toMatchObject({ kind: 'protected' });
  });

  it('gives up on a tree larger than its limit, and has nothing to say of a file', async () => {
    const top = await makeTempDir('tree-');
    for (const name of ['a', 'b', 'c']) await writeFile(join(top, name), name);
    expect(treeObstacle(top, checks(), 2)).toEqual({ kind: 'too-large' });
    expect(treeObstacle(top, checks(), 3)).toBeNull();
    expect(treeObstacle(join(top, 'a'), checks())).toBeNull();
  });

  it('names a file that holds a credential by its name, and never a directory of that name', async () => {
    const top = await makeTempDir('tree-');
    await mkdir(join(top, 'app', '.env'), { recursive: true });
    const dotenv = { name: 'a dotenv file' } as Protection;
    const credential = (path: string): Protection | null =>
      path.endsWith('/.env') ? dotenv : null;
    expect(treeObstacle(top, checks(byName, credential))).toBeNull();
    await mkdir(join(top, 'app', 'settings'));
    await writeFile(join(top, 'app', 'settings', '.env'), 'DB_PASSWORD=x');
    expect(treeObstacle(top, checks(byName, credential))).toMatchObject({
      kind: 'credential',
      path: join(top, 'app', 'settings', '.env'),
    });
  });
});
