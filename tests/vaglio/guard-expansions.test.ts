// What a shell word can become before the guard judges it: braces, variables set in any order
// inside a loop, $HOME spellings, a child shell's $1/$@/$*, and globs with every bracket form,
// at the bounds the guard keeps (12 wildcards). Decided by the guard for a home outside /home;
// each protected spelling beside a look-alike that must pass.
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../../runtime/shell/parse.ts';
import { guardCall } from '../../runtime/vaglio/guard.ts';
import { guardShell, reasonOf } from './guard-helpers.ts';

const home = '/data/ada';
const ACCOUNTS =
  'forbidden path: account and privilege databases (/etc/passwd, shadow, gshadow, sudoers)';
const SSH = 'forbidden path: ssh keys and config (~/.ssh)';

beforeAll(async () => {
  await initShellParser();
});

function decide(command: string): string {
  return reasonOf(guardShell(command, home));
}

describe('braces, variables and a child shell’s arguments', () => {
  it.each([
    'cat /etc/{hosts,shadow}',
    'cat /e{t,x}c/{hosts,shadow}',
    'cat /e{t,x}c/{hosts,sh{a,o}dow}',
    'd=/etc; cat $d/shadow',
    'a=/etc; b=$a; c=$b; d=$c; cat $d/shadow',
    'for i in 1 2 3 4; do d=$c; c=$b; b=$a; a=/etc; done; cat $d/shadow',
    'x=/tmp/a; x=/tmp/b; x=/tmp/c; x=/tmp/d; x=/tmp/e; x=/tmp/f; x=/tmp/g; x=/etc; cat $x/shadow',
    'cat $(echo /etc/shadow)',
    "sh -c 'cat $1' _ /etc/shadow",
    "sh -c 'cat $2' _ /etc/hosts /etc/shadow",
    'sh -c \'cat "$@"\' _ /etc/hosts /etc/shadow',
    "sh -c 'cat $*' _ /etc/shadow",
  ])('%s reads the account database', (command) => {
    expect(decide(command)).toBe(ACCOUNTS);
  });

  it.each([
    'cat $HOME/.ssh/id_rsa',
    'cat ${HOME}/.ssh/id_rsa',
    'cat "$HOMEDIR/.ssh/id_rsa"',
    'cat ~/.ss?/id_rsa',
    'cat ~/.ssh/*',
  ])('%s reads an ssh key', (command) => {
    expect(decide(command)).toBe(SSH);
  });

  it.each([
    'cat /etc/{hosts,hostname}',
    "cat '/etc/{hosts,shadow}'",
    'cat "/etc/{hosts,shadow}"',
    'cat /etc/{shadow}',
    'cat /etc/{hosts,shadow}.bak',
    "sh -c 'cat $1' _ /etc/hosts /etc/shadow.bak",
    'cat "$(cat list.txt)"',
    'cat ~/*/id_rsa',
  ])('%s passes', (command) => {
    expect(decide(command)).toBe('PASS');
  });

  it('a brace list that is only printed is a mention', () => {
    expect(guardShell('echo /etc/{hosts,shadow}', home)).toEqual({
      blocked: false,
      signals: ['protected path mentioned'],
    });
  });
});

describe("shell_exec's own arguments as $1, $2, $@ and $*", () => {
  function withArgs(command: string, args: readonly string[]): string {
    return reasonOf(
      guardCall({ executor: 'shell_exec', args: { command, args }, commandArg: 'command', home }),
    );
  }

  it.each([
    ['cat $1/shadow', ['/etc']],
    ['cat $2/shadow', ['/tmp', '/etc']],
    ['cat "$@"', ['/tmp/x', '/etc/shadow']],
    ['cat $*', ['/etc/shadow']],
  ] as const)('%s with args %j reads the account database', (command, args) => {
    expect(withArgs(command, args)).toBe(ACCOUNTS);
  });

  it.each([
    ['cat $1/shadow', ['/tmp', '/etc']],
    ['cat $1/shadow', []],
    ['cat $0/shadow', ['/etc']],
  ] as const)('%s with args %j passes', (command, args) => {
    expect(withArgs(command, args)).toBe('PASS');
  });
});

describe('a path inside an option is normalised before it is judged', () => {
  it.each([
    'cmd --file=/etc/./shadow',
    'grep -r x --exclude=/etc/../etc/shadow .',
    'cmd --in=//etc//shadow',
  ])('%s names /etc/shadow', (command) => {
    expect(decide(command)).toBe(ACCOUNTS);
  });
});

describe('globs', () => {
  it.each([
    'cat /etc/shado?',
    'cat /etc/sha[dx]ow',
    'cat /etc/sha[!x]ow',
    'cat /etc/sha[^x]ow',
    'cat /etc/sha[]d]ow',
    'cat /etc/sha[a-z]ow',
    'cat /e?c/s?a?o?',
    'cat /e*/sh*',
    'cat /*/shadow',
  ])('%s can expand to /etc/shadow', (command) => {
    expect(decide(command)).toBe(ACCOUNTS);
  });

  it.each([
    'cat /etc/sha[!d]ow',
    'cat /etc/sha[d',
    'cat /etc/[',
    'cat /etc/*/shadow',
    'cat /etc/**/shadow',
    'ls /*',
    'cat /?/?/?/?/?/?/?/?/?/?/?/?',
  ])('%s cannot, and passes', (command) => {
    expect(decide(command)).toBe('PASS');
  });

  it('a glob of 13 wildcards is refused as too complex to check', () => {
    expect(guardShell('cat /?/?/?/?/?/?/?/?/?/?/?/?/?', home)).toEqual({
      blocked: true,
      reason: 'guard: glob too complex to check',
      signals: ['guard error'],
    });
  });
});

describe('a device as a whole word or an option’s value', () => {
  it.each(['cmd --in=/dev/sdb', 'cmd x=/dev/sdb', "cmd ' /dev/sda '", 'dd of=/dev/sdb'])(
    '%s names a raw disk',
    (command) => {
      expect(decide(command)).toMatch(/^forbidden path: raw block devices/);
    },
  );
  it.each(['echo notes about /dev/sda', 'dd if=/dev/zero of=disk.img', 'cmd --dev=/dev/sdb-notes'])(
    '%s passes',
    (command) => {
      expect(decide(command)).toBe('PASS');
    },
  );
});

describe('a parameter operator the grammar cannot read (case toggles, a run-time offset)', () => {
  const WIPE = 'dangerous shell: recursive delete of / or a home or system tree';
  it.each([
    'rm -rf ${HOME~}',
    'rm -rf ${HOME~~}',
    'rm -rf "${HOME~}"',
    'rm -rf ${HOME:$n}',
    'rm -rf ${HOME: $n}',
    'rm -rf ${HOME:0:$n}',
    'cd /tmp && rm -rf ${HOME~}',
  ])('%s is refused as the wipe it may be', (command) => {
    expect(decide(command)).toBe(WIPE);
  });

  it.each(['cat ${HOME~}/.ssh/id_ed25519', 'cat "${HOME:$n}/.ssh/id_ed25519"'])(
    '%s is refused as the read of a key it may be',
    (command) => {
      expect(decide(command)).toBe(SSH);
    },
  );

  it('the same operator on a name of no place passes the guard', () => {
    expect(decide('echo ${NAME~}')).toBe('PASS');
  });
});
