// The home or / taken away by a spelling other than rm -r: a deleter fed the tree as text (a
// here-string, a here-document, a list file the line writes, with blank lines around the names,
// given with `<`, `-a` or `--arg-file`), mv of the tree, rsync --delete onto it, an archiver that
// deletes what it packs. And the neighbours that pass the guard: a list the guard cannot read,
// a list of build dirs, mv or rsync INTO the home, rsync without --delete, an archive that keeps
// its files. Commands written here, under a home outside /home.
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../../runtime/shell/parse.ts';
import { guardShell, reasonOf } from './guard-helpers.ts';

const home = '/data/ada';
const WIPE = 'dangerous shell: recursive delete of / or a home or system tree';

beforeAll(async () => {
  await initShellParser();
});

describe('a deleter fed a critical tree as text is denied', () => {
  it.each([
    'xargs rm -rf <<< ~',
    'xargs rm -rf <<< /',
    'xargs -0 rm -rf <<< "$HOME"',
    'xargs rm -rf <<EOF\n/data/ada\nEOF',
    "xargs -n1 rm -rf <<'EOF'\n/var/tmp/x\n/\nEOF",
    "printf '\\n/data/ada\\n\\n' > l; xargs rm -rf < l",
    'echo / > l; xargs --arg-file l rm -rf',
    'echo / > l; xargs --arg-file=l rm -rf',
    'echo / > l; xargs -al rm -rf',
  ])('%s', (command) => {
    expect(reasonOf(guardShell(command, home))).toBe(WIPE);
  });
});

describe('a deleter fed something else is not a wipe', () => {
  it.each([
    'xargs rm -rf < list.txt',
    'xargs -a list.txt rm -rf',
    'cat list.txt | xargs rm -rf',
    "printf '\\nbuild\\n\\ndist\\n' > l; xargs rm -rf < l",
    'echo /var/tmp/a /var/tmp/b > l; xargs -a l rm -rf',
    'xargs rm -rf <<< ~/project/build',
    'xargs rm -rf <<EOF\n/var/tmp/cache\nEOF',
    // a listing AFTER the deleter in the pipe reads its output; it does not feed it
    'cat list.txt | xargs rm -rv | ls ~',
  ])('%s', (command) => {
    expect(reasonOf(guardShell(command, home))).not.toBe(WIPE);
  });
});

describe('moving, mirroring or packing away a critical tree is denied', () => {
  it.each([
    'mv ~ /var/tmp/old-home',
    'mv /data/ada /var/tmp/x',
    'mv -f ~/ /var/tmp/x',
    'rsync -a --delete /var/tmp/empty/ ~/',
    'rsync -a --delete-after /var/tmp/empty/ /',
    'tar czf /var/tmp/h.tgz --remove-files ~',
    'zip -rm /var/tmp/h.zip ~',
    'zip -r --move /var/tmp/h.zip /data/ada',
  ])('%s', (command) => {
    expect(reasonOf(guardShell(command, home))).toBe(WIPE);
  });
});

describe('moving or mirroring INTO the home, or packing without deleting, is not a wipe', () => {
  it.each([
    'mv /var/tmp/report.pdf ~',
    'mv build/out.txt /data/ada/',
    'rsync -a /var/tmp/dotfiles/ ~/',
    'rsync -a --delete ~/ /var/tmp/backup/',
    'rsync -a --delete ~/project/ /var/tmp/project-copy/',
    'tar czf /var/tmp/h.tgz ~',
    'zip -r /var/tmp/h.zip ~',
  ])('%s', (command) => {
    expect(reasonOf(guardShell(command, home))).not.toBe(WIPE);
  });
});
