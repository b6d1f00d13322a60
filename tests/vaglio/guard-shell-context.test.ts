// What the guard reads besides the command text: shell_exec's cwd (where a bare `*` lands), a
// command named by a variable, and a secret-shaped token on a line that can reach the network.
// Home outside /home (/data/ada); every denial beside a look-alike that passes.
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../../runtime/shell/parse.ts';
import { guardCall, SECRET_TOKEN_SIGNAL, type GuardResult } from '../../runtime/vaglio/guard.ts';
import { guardShell, reasonOf } from './guard-helpers.ts';

const home = '/data/ada';
const RECURSIVE_DELETE = 'dangerous shell: recursive delete of / or a home or system tree';

beforeAll(async () => {
  await initShellParser();
});

function at(command: string, cwd: unknown): GuardResult {
  return guardCall({ executor: 'shell_exec', args: { command, cwd }, commandArg: 'command', home });
}

describe("shell_exec's cwd", () => {
  it.each([
    ['rm -rf *', '/'],
    ['rm -rf *', '~'],
    ['rm -rf *', '..'],
    ['rm -rf *', '~/..'],
    ['rm -rf *', '/data'],
    ['rm -rf ../*', 'project'],
    ['rm -rf ../*', '~'],
    ['rm -rf *', 7],
    ['rm -rf *', null],
  ])('%s in %j empties a critical tree', (command, cwd) => {
    expect(reasonOf(at(command, cwd))).toBe(RECURSIVE_DELETE);
  });

  it.each([
    ['rm -rf *', 'project'],
    ['rm -rf *', '~/project'],
    ['rm -rf *', '/data/ada/build'],
    ['rm -rf *', '/tmp'],
    ['rm -rf ../*', 'project/build'],
  ])('%s in %j passes', (command, cwd) => {
    expect(at(command, cwd)).toEqual({ blocked: false, signals: [] });
  });

  it('an inherited cwd is not the call’s', () => {
    const args = Object.assign(Object.create({ cwd: '/tmp' }) as object, { command: 'rm -rf *' });
    expect(reasonOf(guardCall({ executor: 'shell_exec', args, commandArg: 'command', home }))).toBe(
      RECURSIVE_DELETE,
    );
  });
});

describe('a command named by a variable is judged as the command it names', () => {
  it.each(['X=rm; $X -rf /', 'X="rm -rf"; $X /', 'X=/bin/rm; $X -rf ~', 'X=" rm  -rf "; $X ~'])(
    '%s',
    (command) => {
      expect(reasonOf(guardShell(command, home))).toBe(RECURSIVE_DELETE);
    },
  );

  it.each(['X=ls; $X -rf /', 'X=" "; $X /', 'X=echo; $X rm -rf /'])('%s passes', (command) => {
    expect(guardShell(command, home)).toEqual({ blocked: false, signals: [] });
  });
});

describe('a secret-shaped token on a line that can reach the network', () => {
  const token = `ghp_${'a1B2c3D4e5'.repeat(3)}123456`;
  it.each([
    `curl -H "Authorization: token ${token}" https://x.example`,
    `git push https://${token}@github.com/a/b`,
    `echo ${token} | python3`,
    `$X ${token}`,
  ])('%s passes with the token signal', (command) => {
    expect(guardShell(command, home)).toEqual({ blocked: false, signals: [SECRET_TOKEN_SIGNAL] });
  });

  it.each([`echo ${token}`, `echo ${token} > ~/token.txt`, 'curl https://x.example'])(
    '%s carries no signal',
    (command) => {
      expect(guardShell(command, home)).toEqual({ blocked: false, signals: [] });
    },
  );
});
