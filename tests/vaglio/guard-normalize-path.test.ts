import { describe, expect, it } from 'vitest';
import { isUnder, normalizePath } from '../../runtime/vaglio/normalize-path.ts';

const home = '/home/ada';

describe('normalizePath', () => {
  it.each([
    ['~', '/home/ada'],
    ['~/.ssh/id_rsa', '/home/ada/.ssh/id_rsa'],
    ['$HOME/.ssh', '/home/ada/.ssh'],
    ['${HOME}/.ssh/', '/home/ada/.ssh'],
    ['//etc//passwd', '/etc/passwd'],
    ['/usr/../etc/./shadow', '/etc/shadow'],
    ['/../../etc/passwd', '/etc/passwd'],
    ['/', '/'],
    ['./build/../dist', 'dist'],
    ['../x', '../x'],
    ['.', '.'],
    ['~user/x', '~user/x'],
    ['$HOMEX/y', '$HOMEX/y'],
    // Only a leading ~ is the home: one later in the path is a file named ~.
    ['x/../~/y', '~/y'],
    ['/srv/~', '/srv/~'],
    ['', '.'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizePath(input, home)).toBe(expected);
  });
});

describe('isUnder', () => {
  it.each([
    ['/etc/shadow', '/', true],
    ['/', '/', true],
    ['/home/ada', '/home/ada', true],
    ['/home/ada/x', '/home/ada', true],
    ['/home/adam', '/home/ada', false],
    ['/home', '/home/ada', false],
    ['/tmpfoo', '/tmp', false],
  ])('%s under %s: %s', (path, root, expected) => {
    expect(isUnder(path, root)).toBe(expected);
  });
});
