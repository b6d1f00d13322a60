// A command named by a variable is judged as the program the variable holds: its value's words
// come first (`CMD="rm -rf"; $CMD /`), a path names its basename, and a value that is empty
// leaves no word at all (bash drops an unquoted empty expansion), so the next word is the
// program: `$SUDO rm -rf /` with SUDO unset or empty is rm. Home outside /home (/data/ada).
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../../runtime/shell/parse.ts';
import { guardShell, reasonOf } from './guard-helpers.ts';

const home = '/data/ada';
const RECURSIVE_DELETE = 'dangerous shell: recursive delete of / or a home or system tree';

beforeAll(async () => {
  await initShellParser();
});

describe('a program named by a variable', () => {
  it.each([
    'CMD=rm; $CMD -rf /',
    'CMD="rm -rf"; $CMD /',
    'CMD="rm  -rf"; $CMD /',
    'CMD="rm\t-Rf"; $CMD ~',
    'CMD=/bin/rm; $CMD -rf /',
    'CMD=" rm"; $CMD -rf /',
    'for c in echo rm; do $c -rf ~; done',
    'CMD=; $CMD rm -rf /',
    'CMD=""; $CMD rm -rf ~',
    'E=; $E $E rm -Rf /',
    '$SUDO rm -rf /',
    'X=; $X "$X" rm -rf /',
    'CMD=; $CMD $(echo rm) -rf /',
  ])('%s is a recursive delete', (command) => {
    expect(reasonOf(guardShell(command, home))).toBe(RECURSIVE_DELETE);
  });

  it.each([
    'CMD=ls; $CMD -rf /',
    'CMD="ls -rf"; $CMD /',
    'CMD=; $CMD ls -la /',
    'CMD=rm; $CMD -rf ~/build',
    '$SUDO rm -rf ~/build',
    '$SUDO apt update',
    'CMD=; $CMD',
    'E=; $E $E $E',
    '$EDITOR notes.txt',
  ])('%s passes', (command) => {
    expect(reasonOf(guardShell(command, home))).toBe('PASS');
  });
});
