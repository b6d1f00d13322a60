// Globs and positional words read as bash reads them. Without dotglob a wildcard (*, ?, [..])
// never matches the leading dot of a name, in the first segment or after any slash, so
// `~/*/id_ed25519` cannot reach ~/.ssh while `~/.*/id_ed25519` can. `$@` and `$*` with no
// arguments expand to nothing: `/etc/sha$@dow` is /etc/shadow. Home outside /home (/data/ada).
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../../runtime/shell/parse.ts';
import { guardCall } from '../../runtime/vaglio/guard.ts';
import { guardShell, reasonOf } from './guard-helpers.ts';

const home = '/data/ada';
const SSH_KEYS = 'forbidden path: ssh keys and config';
const ACCOUNTS = 'forbidden path: account and privilege databases';

beforeAll(async () => {
  await initShellParser();
});

describe('a wildcard after a slash skips dot-names', () => {
  it.each([
    'cat ~/*/id_ed25519',
    'cat ~/?ssh/id_rsa',
    'cat ~/*ssh/id_rsa',
    'cat /data/ada/[.a-z]ssh/id_rsa',
    'cat ~/*/credentials',
  ])('%s passes', (command) => {
    expect(reasonOf(guardShell(command, home))).toBe('PASS');
  });

  it.each(['cat ~/.*/id_ed25519', 'cat ~/.s*/id_rsa', 'cat ~/.ss?/id_rsa', 'cat /data/ada/.ssh/*'])(
    '%s reaches ~/.ssh',
    (command) => {
      expect(reasonOf(guardShell(command, home))).toContain(SSH_KEYS);
    },
  );
});

describe('$@ and $* with and without arguments', () => {
  function withArgs(command: string, args: readonly string[]) {
    return guardCall({
      executor: 'shell_exec',
      args: { command, args },
      commandArg: 'command',
      home,
    });
  }

  it.each(['cat /etc/sha$@dow', 'cat /etc/sha$*dow', 'cat "/etc/sha$@dow"'])(
    '%s with no arguments is /etc/shadow',
    (command) => {
      expect(reasonOf(withArgs(command, []))).toContain(ACCOUNTS);
    },
  );

  it.each([
    ['cat /etc/$@', ['shadow']],
    ['cat /etc/$*', ['gshadow']],
    ['cat "$@"', ['/tmp/x', '/etc/shadow']],
  ])('%s with %j reads an account database', (command, args) => {
    expect(reasonOf(withArgs(command, args))).toContain(ACCOUNTS);
  });

  it.each([
    ['cat /etc/sha$@dow', ['x']],
    ['cat /etc/$@', ['hostname']],
  ])('%s with %j passes', (command, args) => {
    expect(reasonOf(withArgs(command, args))).toBe('PASS');
  });
});
