// A GNU program reads any unambiguous prefix of a long option as that option (getopt_long):
// `rm --rec ~` is `rm --recursive ~`, `tar --remove -cf x ~` is `--remove-files`, `chmod --rec 000
// ~` is `chmod --recursive`. The guard reads each command's long options spelled out as the program
// will read them, as the read-only catalogue does, so a wipe given by a prefix is refused like the
// option written in full; and rsync's own `--del` (its alias of `--delete-during`) is a delete.
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../../runtime/shell/parse.ts';
import { guardShell, reasonOf } from './guard-helpers.ts';

const home = '/data/ada';
const WIPE = 'dangerous shell: recursive delete of / or a home or system tree';

beforeAll(async () => {
  await initShellParser();
});

describe('a home wipe given by abbreviated long options is refused', () => {
  it.each([
    'rm --rec ~',
    'rm --r ~',
    'rm --recu -f ~',
    'rm --recursive --fo ~',
    'nice rm --rec /',
    'tar --remove -cf /dev/null ~',
    'tar --remove-f -czf /var/tmp/h.tgz ~',
    'rsync -a --del /var/empty/ ~/',
    // Spelled out, the line keeps its shape: xargs still feeds the shell that deletes.
    'find ~ -type f -print0 | xargs -0 -P4 -I{} sh -c \'gpg --batch -c --passphrase k "{}" && rm "{}"\'',
    'find ~ -type f -print0 | xargs -0 -I{} sh -c \'gpg -c "{}" && rm --verb "{}"\'',
  ])('%s', (command) => {
    expect(reasonOf(guardShell(command, home))).toBe(WIPE);
  });

  it('a recursive permission change of the home given by a prefix too', () => {
    expect(reasonOf(guardShell('chmod --rec 000 ~', home))).toMatch(/permission change/);
  });
});

describe('a prefix that names something else is not a wipe', () => {
  it.each(['rm --verb ~/build/x', 'rm --rec ~/project/build', 'tar --remove -cf a.tar build'])(
    '%s',
    (command) => {
      expect(reasonOf(guardShell(command, home))).not.toBe(WIPE);
    },
  );
});
