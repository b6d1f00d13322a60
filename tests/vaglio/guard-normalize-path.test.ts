import { describe, expect, it } from 'vitest';
import { normalizePath } from '../../runtime/vaglio/normalize-path.ts';

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
  ])('%s -> %s', (input, expected) => {
    expect(normalizePath(input, home)).toBe(expected);
  });
});
