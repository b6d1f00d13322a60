// A protected place under another name, asked of the executors' check directly: a hard link to a
// key is the key, while two hard-linked files of the person's own are nobody's secret; where the
// links in a store lead, however the store is named; and where the places that decide what runs
// later really are (dotfiles, ~/bin, ~/.config, PATH directories linked elsewhere). Real files in
// a temp home; the samples are written here, independent of the protected list.
import { link, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  protectedCheck,
  runsLaterTargetsOf,
  storeAliasesOf,
} from '../../executors/protected-places.ts';
import { makeTempDir } from './make-context.ts';

describe('the run-time protected-place check', () => {
  it('finds a hard link to a key anywhere, and leaves hard-linked files of the person alone', async () => {
    const home = await makeTempDir('home-');
    await mkdir(join(home, '.ssh'));
    await mkdir(join(home, 'notes'));
    await writeFile(join(home, '.ssh', 'id_ed25519'), 'PRIVATE\n');
    await link(join(home, '.ssh', 'id_ed25519'), join(home, 'notes', 'key'));
    await writeFile(join(home, 'notes', 'draft.txt'), 'mine\n');
    await link(join(home, 'notes', 'draft.txt'), join(home, 'notes', 'draft-copy.txt'));
    const check = protectedCheck({ HOME: home });
    expect(check(join(home, 'notes', 'key'))?.why).toMatch(/second name for a secret/);
    expect(check(join(home, 'notes', 'draft.txt'))).toBeNull();
    expect(check(join(home, 'notes', 'draft-copy.txt'))).toBeNull();
    expect(check(join(home, 'notes', 'missing'))).toBeNull();
  });

  it("follows a link inside a tool's ~/.config/<tool>/credentials.env to the file it names", async () => {
    const home = await makeTempDir('home-');
    const dotfiles = await makeTempDir('dotfiles-');
    await writeFile(join(dotfiles, 'acme.env'), 'TOKEN=1\n');
    await writeFile(join(dotfiles, 'other.env'), 'COLOR=1\n');
    await mkdir(join(home, '.config', 'acme'), { recursive: true });
    await symlink(join(dotfiles, 'acme.env'), join(home, '.config', 'acme', 'credentials.env'));
    await symlink(join(dotfiles, 'other.env'), join(home, '.config', 'acme', 'settings.env'));
    const { linkTargets } = storeAliasesOf({ HOME: home });
    expect(linkTargets).toContain(join(dotfiles, 'acme.env'));
    expect(linkTargets).not.toContain(join(dotfiles, 'other.env'));
    const check = protectedCheck({ HOME: home });
    expect(check(join(dotfiles, 'acme.env'))).not.toBeNull();
    expect(check(join(dotfiles, 'other.env'))).toBeNull();
  });

  it('follows links a few levels inside a store directory', async () => {
    const home = await makeTempDir('home-');
    const elsewhere = await makeTempDir('elsewhere-');
    await writeFile(join(elsewhere, 'token'), 'x');
    await mkdir(join(home, '.aws', 'sso', 'cache'), { recursive: true });
    await symlink(join(elsewhere, 'token'), join(home, '.aws', 'sso', 'cache', 'token.json'));
    expect(storeAliasesOf({ HOME: home }).linkTargets).toContain(join(elsewhere, 'token'));
  });

  it('sees a store or dotfile link made after an earlier look once the short cache has passed', async () => {
    const home = await makeTempDir('home-');
    const dotfiles = await makeTempDir('dotfiles-');
    await writeFile(join(dotfiles, 'netrc'), 'machine x login y password z\n');
    await writeFile(join(dotfiles, 'bashrc'), 'alias ll="ls -l"\n');
    expect(protectedCheck({ HOME: home })(join(dotfiles, 'netrc'))).toBeNull();
    expect(runsLaterTargetsOf(home, [])).toEqual([]);
    await symlink(join(dotfiles, 'netrc'), join(home, '.netrc'));
    await symlink(join(dotfiles, 'bashrc'), join(home, '.bashrc'));
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(protectedCheck({ HOME: home })(join(dotfiles, 'netrc'))).not.toBeNull();
    expect([...runsLaterTargetsOf(home, [])].sort()).toEqual([
      join(dotfiles, 'bashrc'),
      join(dotfiles, 'netrc'),
    ]);
  });
});

describe('where what runs later really is', () => {
  it('the targets of hidden names, ~/bin, ~/.config links and PATH directories in or linked from the home', async () => {
    const home = await makeTempDir('home-');
    const dotfiles = await makeTempDir('dotfiles-');
    for (const dir of ['bin', 'nvim', 'tools', 'pathdir', 'photos'])
      await mkdir(join(dotfiles, dir));
    for (const file of ['bashrc', 'tool', 'notes']) await writeFile(join(dotfiles, file), 'x');
    await symlink(join(dotfiles, 'bashrc'), join(home, '.bashrc'));
    await symlink(join(dotfiles, 'bin'), join(home, 'bin'));
    await mkdir(join(home, '.config'));
    await symlink(join(dotfiles, 'nvim'), join(home, '.config', 'nvim'));
    // Plain names in the home decide nothing that runs later.
    await symlink(join(dotfiles, 'photos'), join(home, 'photos'));
    await symlink(join(dotfiles, 'notes'), join(home, 'notes.txt'));
    // A dotfile link that leads nowhere names no place.
    await symlink(join(dotfiles, 'missing'), join(home, '.zshrc'));
    // A PATH directory inside the home: the programs linked into it.
    await mkdir(join(home, '.local', 'bin'), { recursive: true });
    await symlink(join(dotfiles, 'tool'), join(home, '.local', 'bin', 'tool'));
    // A PATH directory that is itself a link, and one outside the home with links in it.
    await symlink(join(dotfiles, 'pathdir'), join(home, 'linked-path'));
    const outside = await makeTempDir('outside-');
    await symlink(join(dotfiles, 'tools'), join(outside, 'tools'));
    const places = runsLaterTargetsOf(home, [
      join(home, '.local', 'bin'),
      join(home, 'linked-path'),
      outside,
      join(home, 'no-such-dir'),
    ]);
    expect([...places].sort()).toEqual(
      [
        join(dotfiles, 'bashrc'),
        join(dotfiles, 'bin'),
        join(dotfiles, 'nvim'),
        join(dotfiles, 'tool'),
        join(dotfiles, 'pathdir'),
      ].sort(),
    );
  });
});
