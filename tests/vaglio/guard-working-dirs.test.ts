// Where each command of a line runs, as bash moves: cd and pushd in order, a bare cd to the home,
// options skipped, an empty target staying put, every value a variable may hold, and a cd that
// lasts only in its own shell (a subshell, a pipeline stage, a background job). A read of a
// relative name is judged where it lands. Home outside /home (/data/ada).
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../../runtime/shell/parse.ts';
import { guardCall } from '../../runtime/vaglio/guard.ts';
import { guardShell, reasonOf } from './guard-helpers.ts';

const home = '/data/ada';
const ACCOUNTS = 'forbidden path: account and privilege databases';
const SSH_SERVER = 'forbidden path: ssh server keys and config';
const SSH_KEYS = 'forbidden path: ssh keys and config';

beforeAll(async () => {
  await initShellParser();
});

describe('a relative read lands where the cds before it lead', () => {
  it.each([
    ['cd /etc && cat shadow', ACCOUNTS],
    ['cd /etc; (cat shadow)', ACCOUNTS],
    ['(cd /etc; cat shadow)', ACCOUNTS],
    ['{ cd /etc; }; cat shadow', ACCOUNTS],
    ['cd /etc && (cd /tmp) && cat shadow', ACCOUNTS],
    ['cd /etc && (cd ssh && cat ssh_host_ed25519_key)', SSH_SERVER],
    ['cd /etc && (true; (cat gshadow))', ACCOUNTS],
    ['pushd /etc && cat shadow', ACCOUNTS],
    ['pushd /etc >/dev/null; cat gshadow', ACCOUNTS],
    ['cd /tmp; cd; cat .ssh/id_ed25519', SSH_KEYS],
    ['cd -P /etc && cat shadow', ACCOUNTS],
    ['cd -L -- /etc && cat shadow', ACCOUNTS],
    ['cd /etc && cd ssh && cat ssh_host_rsa_key', SSH_SERVER],
    ['cd /usr && cd ../etc && cat shadow', ACCOUNTS],
    ['cd / && cat etc/shadow', ACCOUNTS],
    ['cd /etc/ssl/certs && cd .. && cd .. && cat shadow', ACCOUNTS],
    ['cd /etc; cd; cd ..; cd ..; cat etc/shadow', ACCOUNTS],
    ['cd /etc && cd "" && cat shadow', ACCOUNTS],
    ['cd .ssh && cat id_ed25519', SSH_KEYS],
    ['cd /opt && cd ~ && cat .ssh/id_rsa', SSH_KEYS],
    ['for d in /etc /tmp; do cd $d; done; cat shadow', ACCOUNTS],
    ['for d in /tmp /etc; do cd $d; done; cat shadow', ACCOUNTS],
    ['x=/etc; cd $x && cat shadow', ACCOUNTS],
    ['if cd /etc; then cat shadow; fi', ACCOUNTS],
    ['cd /etc && bash -c "cat shadow"', ACCOUNTS],
  ])('%s', (command, reason) => {
    expect(reasonOf(guardShell(command, home))).toContain(reason);
  });

  it.each([
    ['cd ../etc && cat shadow', '/usr'],
    ['cat ../etc/shadow', '/usr'],
    ['cd ssh && cat ssh_host_rsa_key', '/etc'],
  ])('%s run in %s', (command, cwd) => {
    const result = guardCall({
      executor: 'shell_exec',
      args: { command, cwd },
      commandArg: 'command',
      home,
    });
    expect(result.blocked).toBe(true);
  });
});

describe('a cd that does not reach the read leaves the read where it was', () => {
  it.each([
    'cat shadow',
    'cd /tmp && cat shadow',
    '(cd /etc); cat shadow',
    '(cd /etc) && cat shadow',
    'cd /etc && (cd /tmp && cat shadow)',
    'cd /etc | cat shadow',
    'cd /etc & cat shadow',
    'cd /etc && cd /tmp && cat shadow',
    'pushd /etc >/dev/null; popd; cd /tmp; cat shadow',
    'cd /var/log && cat syslog',
  ])('%s passes', (command) => {
    expect(reasonOf(guardShell(command, home))).toBe('PASS');
  });
});
