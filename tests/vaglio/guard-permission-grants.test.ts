// A permission change that hands a system file to someone (a setuid or setgid bit, write for
// the group or others, an owner who is not root, a file capability) is denied, in every mode
// spelling: octal of one to four digits, symbolic clauses with and without a "who", several
// clauses, a mode or owner only known at run time. Changes that take nothing from anyone
// (755, u+w, go-w, root:staff, :staff, setcap -r, --reference) pass the guard (a card may
// still ask). Commands written here, under a home outside /home.
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../../runtime/shell/parse.ts';
import { guardShell, reasonOf } from './guard-helpers.ts';

const home = '/data/ada';
const GRANT = 'dangerous shell: permission grant on a system file';

beforeAll(async () => {
  await initShellParser();
});

describe('a grant on a system file is denied', () => {
  it.each([
    // octal: setuid, setgid, both; write for the group or others; short modes padded on the left
    'sudo chmod 4755 /usr/bin/find',
    'sudo chmod 2711 /usr/local/bin/tool',
    'sudo chmod 6755 /bin/x',
    'sudo chmod 775 /etc/cron.d/backup',
    'sudo chmod 664 /etc/hosts',
    'sudo chmod 646 /etc/hosts',
    'sudo chmod 0757 /usr/lib/x.so',
    'sudo chmod 20 /etc/hosts',
    'sudo chmod 2 /etc/hosts',
    // symbolic: write for group/others/all/everyone by umask, a set-id bit, one clause of several
    'sudo chmod g+w /etc/hosts',
    'sudo chmod o+w /etc/hosts',
    'sudo chmod a=rw /etc/hosts',
    'sudo chmod +w /etc/hosts',
    'sudo chmod =rwx /etc/hosts',
    'sudo chmod ug+rw /etc/hosts',
    'sudo chmod u+s /usr/bin/python3',
    'sudo chmod g+s /usr/bin/python3',
    'sudo chmod +s /sbin/x',
    'sudo chmod u+x,o+w /usr/local/bin/tool',
    // a mode nobody can read, or one known only at run time, grants until shown otherwise
    'sudo chmod u+q /etc/hosts',
    'sudo chmod "$MODE" /etc/hosts',
    // an owner other than root, however written
    'sudo chown bob /usr/bin/sudo',
    'sudo chown bob:bob /etc/cron.d/backup',
    'sudo chown bob.staff /boot/vmlinuz',
    'sudo chown 1000 /etc/hosts',
    'sudo chown "$USER" /usr/bin/sudo',
    'sudo chown $(whoami) /etc/hosts',
    // a capability, and / itself
    'sudo setcap cap_setuid+ep /usr/bin/python3',
    'sudo setcap cap_net_raw=ep /usr/lib/x',
    // setcap pairs each file with its own spec: a -r elsewhere on the line removes nothing here
    'sudo setcap cap_setuid+ep /usr/bin/python3 -r /usr/bin/ping',
    'sudo setcap -r /usr/bin/ping cap_setuid+ep /usr/bin/python3',
    'sudo setcap -q -n 0 cap_setuid+ep /usr/bin/python3',
    'sudo setcap - /usr/bin/python3',
    'sudo setcap "$CAPS" /usr/bin/python3 -r /usr/bin/ping',
    'sudo setcap $OPT cap_setuid+ep /usr/bin/python3',
    'sudo setcap -v cap_setuid+ep /usr/bin/python3',
  ])('%s', (command) => {
    expect(reasonOf(guardShell(command, home))).toBe(GRANT);
  });
});

describe('a change that grants nothing, or not on a system file, passes the guard', () => {
  it.each([
    'sudo chmod 755 /usr/local/bin/tool',
    'sudo chmod 0644 /etc/nginx/nginx.conf',
    'sudo chmod 1755 /usr/local/bin/tool',
    'sudo chmod 711 /etc/x',
    'sudo chmod u+w /etc/hosts',
    'sudo chmod go-w /etc/hosts',
    'sudo chmod a-s /usr/bin/x',
    'sudo chmod u+x,go-w /usr/local/bin/tool',
    'sudo chmod o=r /etc/hosts',
    'sudo chmod +t /usr/local/x',
    'sudo chmod u=rwx /etc/x',
    'sudo chown root /etc/hosts',
    'sudo chown root:staff /etc/hosts',
    'sudo chown 0:0 /etc/hosts',
    'sudo chown :staff /etc/hosts',
    'sudo chown .staff /etc/hosts',
    'sudo chgrp staff /etc/hosts',
    'sudo setcap -r /usr/bin/ping',
    'sudo setcap -v -r /usr/bin/ping -r /usr/bin/arping',
    'sudo setcap cap_net_raw+ep /data/ada/bin/ping -r /usr/bin/ping',
    'sudo chmod --reference=/etc/hosts /etc/motd',
    'sudo chown --reference /etc/hosts /etc/motd',
    'chmod 4755 ~/bin/tool',
    'chmod 777 /var/tmp/x',
    'chown bob /srv/www/index.html',
    'chmod',
  ])('%s', (command) => {
    expect(reasonOf(guardShell(command, home))).toBe('PASS');
  });
});
