import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findSecretMasks } from '../../../executors/sandbox/secret-masks.ts';
import { makeTempDir } from '../make-context.ts';

describe('findSecretMasks', () => {
  it('finds existing stores with the right mask kind, links judged by their target, XDG dirs included', async () => {
    const home = await makeTempDir('home-');
    const elsewhere = await makeTempDir('keys-');
    const xdgData = await makeTempDir('xdg-');
    await mkdir(join(home, '.ssh'));
    await writeFile(join(home, '.netrc'), 'x');
    await mkdir(join(home, '.docker'));
    await writeFile(join(home, '.docker', 'config.json'), '{}');
    await symlink(elsewhere, join(home, '.gnupg'));
    await symlink(join(elsewhere, 'missing'), join(home, '.aws'));
    await mkdir(join(xdgData, 'custode'));
    await writeFile(join(home, 'notes.txt'), 'not a secret');
    const all = findSecretMasks({ HOME: home, XDG_DATA_HOME: xdgData });
    const masks = all.filter(
      (mask) => mask.path.startsWith(`${home}/`) || mask.path.startsWith(`${xdgData}/`),
    );
    expect(all).toContainEqual({ path: '/etc/shadow', kind: 'file' });
    expect(masks.sort((a, b) => a.path.localeCompare(b.path))).toEqual(
      [
        { path: join(home, '.docker', 'config.json'), kind: 'file' },
        { path: join(home, '.gnupg'), kind: 'dir' },
        { path: join(home, '.netrc'), kind: 'file' },
        { path: join(home, '.ssh'), kind: 'dir' },
        { path: join(xdgData, 'custode'), kind: 'dir' },
        // Created on the way: Custode's own config and state dirs are always masked.
        { path: join(home, '.config', 'custode'), kind: 'dir' },
        { path: join(home, '.local', 'state', 'custode'), kind: 'dir' },
      ].sort((a, b) => a.path.localeCompare(b.path)),
    );
  });
});
