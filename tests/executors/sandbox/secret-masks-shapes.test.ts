// What the sandbox hides, for stores of every shape: a tool's credentials file under any
// ~/.config/<tool>/ (a `*` in the middle of a store's path), the file or directory a store's link
// leads to outside it, and a public key that shows through a hidden ~/.ssh. The homes and samples
// are written here, independent of the protected list; each case asks findSecretMasks directly.
import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findSecretMasks } from '../../../executors/sandbox/secret-masks.ts';
import type { SecretMask } from '../../../executors/sandbox/bwrap-args.ts';
import { makeTempDir } from '../make-context.ts';

const PUBLIC_KEY =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILocbLAV3pPmYBcX4DPfn8CcSq7D497wl6VQW2sLx4vM me@laptop\n';

/** The masks under `dirs`, sorted by path; not Custode's own dirs, always masked. */
function masksUnder(home: string, ...dirs: string[]): SecretMask[] {
  return findSecretMasks({ HOME: home })
    .filter((mask) => dirs.some((dir) => mask.path === dir || mask.path.startsWith(`${dir}/`)))
    .filter((mask) => !/\/custode(?:\/|$)/.test(mask.path))
    .sort((a, b) => a.path.localeCompare(b.path));
}

describe('the sandbox hides', () => {
  it("a tool's credentials.env under any ~/.config/<tool>/, and nothing else there", async () => {
    const home = await makeTempDir('home-');
    for (const tool of ['acme', 'weather.app', 'x+y']) {
      await mkdir(join(home, '.config', tool), { recursive: true });
      await writeFile(join(home, '.config', tool, 'credentials.env'), 'TOKEN=1\n');
      await writeFile(join(home, '.config', tool, 'settings.env'), 'COLOR=1\n');
    }
    // A file where a tool's directory would be holds nothing to hide below it.
    await writeFile(join(home, '.config', 'plainfile'), 'x');
    const masks = masksUnder(home, join(home, '.config'));
    expect(masks).toEqual(
      ['acme', 'weather.app', 'x+y'].map((tool) => ({
        path: join(home, '.config', tool, 'credentials.env'),
        kind: 'file',
      })),
    );
  });

  it('where the links in a store lead (a file or a directory), not a target holding the home or a dangling one', async () => {
    const home = await makeTempDir('home-');
    const dotfiles = await makeTempDir('dotfiles-');
    await mkdir(join(dotfiles, 'aws'));
    await writeFile(join(dotfiles, 'aws', 'credentials'), '[default]\n');
    await mkdir(join(dotfiles, 'kube'));
    await mkdir(join(home, '.aws'));
    await symlink(join(dotfiles, 'aws', 'credentials'), join(home, '.aws', 'credentials'));
    await symlink(join(dotfiles, 'kube'), join(home, '.kube'));
    await symlink(join(dotfiles, 'gone'), join(home, '.netrc'));
    // A link back to the home itself: hiding it would hide the call's own files.
    await symlink(home, join(home, '.aws', 'back-home'));
    const masks = masksUnder(home, dotfiles, home);
    expect(masks).toEqual(
      [
        { path: join(dotfiles, 'aws', 'credentials'), kind: 'file' },
        { path: join(dotfiles, 'kube'), kind: 'dir' },
        { path: join(home, '.aws'), kind: 'dir' },
        { path: join(home, '.kube'), kind: 'dir' },
      ].sort((a, b) => a.path.localeCompare(b.path)),
    );
  });

  it('a link target inside a store already hidden whole is not masked twice', async () => {
    const home = await makeTempDir('home-');
    await mkdir(join(home, '.ssh'));
    await writeFile(join(home, '.ssh', 'id_ed25519'), 'PRIVATE\n');
    await symlink(join(home, '.ssh', 'id_ed25519'), join(home, '.ssh', 'copy'));
    const masks = masksUnder(home, home);
    expect(masks).toEqual([{ path: join(home, '.ssh'), kind: 'dir' }]);
  });

  it('shows a public key through a hidden ~/.ssh, never a private key, a directory or a link named .pub', async () => {
    const home = await makeTempDir('home-');
    const ssh = join(home, '.ssh');
    await mkdir(ssh);
    await writeFile(join(ssh, 'id_ed25519.pub'), PUBLIC_KEY);
    await writeFile(join(ssh, 'id_ed25519'), '-----BEGIN OPENSSH PRIVATE KEY-----\nx\n');
    await writeFile(join(ssh, 'stolen.pub'), '-----BEGIN OPENSSH PRIVATE KEY-----\nx\n');
    await writeFile(join(ssh, 'authorized_keys'), PUBLIC_KEY);
    await mkdir(join(ssh, 'dir.pub'));
    await symlink(join(ssh, 'id_ed25519'), join(ssh, 'link.pub'));
    expect(await readdir(ssh)).toHaveLength(6);
    const masks = masksUnder(home, home);
    expect(masks).toEqual([
      { path: ssh, kind: 'dir' },
      { path: join(ssh, 'id_ed25519.pub'), kind: 'public' },
    ]);
  });
});
