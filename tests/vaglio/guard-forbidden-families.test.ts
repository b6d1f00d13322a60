// Every forbidden path family, pinned by paths written here rather than by the samples the
// constitution keeps beside its patterns: a family removed together with its samples, or a
// sample dropped (globs are checked against them), changes a decision below. The home is not
// under /home, so no /home rule stands in for ~.
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../../runtime/shell/parse.ts';
import { guardCall, type GuardResult } from '../../runtime/vaglio/guard.ts';
import { guardShell, reasonOf } from './guard-helpers.ts';

const home = '/data/ada';

beforeAll(async () => {
  await initShellParser();
});

function shell(command: string): GuardResult {
  return guardShell(command, home);
}

/** Each family by the words its reason must contain, with real-world paths in it. */
const FAMILIES: readonly (readonly [string, readonly string[]])[] = [
  ['custode config', ['~/.config/custode/credentials.env', '/data/ada/.config/custode/rules.yaml']],
  ['application credentials', ['~/.config/gh/credentials.env', '~/.config/acme/credentials.env']],
  ['ssh keys', ['~/.ssh/id_ed25519', '~/.ssh/known_hosts', '/data/ada/.ssh', '/srv/git/.ssh/x']],
  [
    'account and privilege',
    [
      '/etc/passwd',
      '/etc/passwd-',
      '/etc/shadow',
      '/etc/shadow-',
      '/etc/gshadow',
      '/etc/sudoers',
      '/etc/sudoers.d',
      '/etc/sudoers.d/README',
      '/etc/sudoers.d/90-cloud-init-users',
    ],
  ],
  ['ssh server keys', ['/etc/ssh/ssh_host_rsa_key', '/etc/ssh/sshd_config.d/50-cloud.conf']],
  ['authentication policy', ['/etc/security/opasswd', '/etc/security/limits.d/x.conf']],
  ['TLS private keys', ['/etc/ssl/private/server.key', '/etc/ssl/private']],
  ['superuser', ['/root', '/root/.bash_history', '/root/.profile']],
  ['boot loader passwords', ['/boot/grub/grub.cfg', '/boot/grub2/user.cfg']],
  ['kernel secrets', ['/sys/firmware/efi/efivars/x', '/sys/kernel/debug/tracing']],
  [
    'process memory',
    [
      '/proc/self/environ',
      '/proc/thread-self/environ',
      '/proc/42/environ',
      '/proc/1/mem',
      '/proc/kcore',
      '/proc/kallsyms',
      '/proc/self/cmdline',
    ],
  ],
  ['physical memory', ['/dev/mem', '/dev/kmem', '/dev/port']],
  [
    'raw block devices',
    [
      '/dev/sdb',
      '/dev/sdc3',
      '/dev/hda1',
      '/dev/vdb',
      '/dev/xvdf',
      '/dev/nvme1n1',
      '/dev/nvme0n1p3',
      '/dev/mmcblk1p2',
      '/dev/dm-0',
      '/dev/md0',
      '/dev/loop7',
      '/dev/sr0',
      '/dev/rdisk2',
      '/dev/mapper/cryptroot',
      '/dev/disk/by-uuid/1234-abcd',
    ],
  ],
  [
    'cloud credentials',
    [
      '~/.aws/credentials',
      '~/.aws/sso/cache/x.json',
      '~/.azure/msal_token_cache.json',
      '~/.config/gcloud/application_default_credentials.json',
    ],
  ],
  ['gpg keys', ['~/.gnupg/secring.gpg', '~/.gnupg']],
  [
    'stored passwords',
    [
      '~/.netrc',
      '~/_netrc',
      '~/.git-credentials',
      '~/.password-store/bank.gpg',
      '~/.local/share/keyrings/login.keyring',
      '~/.gnome2/keyrings/default',
    ],
  ],
  [
    'container and cluster',
    [
      '~/.docker/config.json',
      '~/.kube/config',
      '~/.config/containers/auth.json',
      '/run/user/1000/containers/auth.json',
    ],
  ],
  [
    'network, VPN and mount secrets',
    [
      '/etc/NetworkManager/system-connections/Home WiFi.nmconnection',
      '~/Downloads/office.nmconnection',
      '/etc/wpa_supplicant/wpa_supplicant.conf',
      '/etc/wpa_supplicant.conf',
      '/var/lib/iwd/HomeNet.psk',
      '/etc/wireguard/wg0.conf',
      '~/.config/wireguard/wg0.conf',
      '~/vpn/wg-home.conf',
      '/etc/openvpn/client/work.conf',
      '~/vpn/work.ovpn',
      '~/.cert/nm-openvpn/work-key.pem',
      '/etc/ppp/chap-secrets',
      '/etc/ppp/pap-secrets',
      '~/.smbcredentials',
      '~/.davfs2/secrets',
      '/etc/davfs2/secrets',
      '~/.passwd-s3fs',
      '/etc/passwd-s3fs',
    ],
  ],
  ['more stored logins', ['~/.mylogin.cnf', '~/.config/spotify/prefs']],
  ['cloud and deploy', ['~/.mc/config.json']],
  [
    'chat sessions and clients',
    [
      '~/.var/app/com.spotify.Client/config/spotify/prefs',
      '~/.var/app/org.gnome.World.Secrets/data/passwords.kdbx',
      '~/.var/app/com.onepassword.OnePassword/config/1Password/settings/settings.json',
      '~/.var/app/me.proton.Pass/config/Proton Pass/x.json',
      '~/.var/app/im.riot.Riot/config/Element/Local Storage/leveldb/1.ldb',
      '~/.config/Element/Local Storage/leveldb/1.ldb',
      '~/.config/hexchat/servlist.conf',
    ],
  ],
];

const CASES = FAMILIES.flatMap(([family, paths]) => paths.map((path) => [path, family] as const));

describe('each forbidden family, by paths written in this test', () => {
  it.each(CASES)('fs_read of %s names the %s family', (path, family) => {
    const result = guardCall({ executor: 'fs_read', args: { path }, home });
    expect(reasonOf(result)).toMatch(/^forbidden path: /);
    expect(reasonOf(result)).toContain(family);
  });

  it.each(CASES)('cat %s in a shell names the %s family', (path, family) => {
    const result = shell(`cat -- '${path.replace(/^~/, home)}'`);
    expect(reasonOf(result)).toMatch(/^forbidden path: /);
    expect(reasonOf(result)).toContain(family);
  });
});

describe('a glob whose wildcard hides the family is blocked (globs are tried on known files)', () => {
  it.each([
    ['cat /etc/sudoers.?/*', 'account and privilege'],
    ['cat /etc/sha*', 'account and privilege'],
    ['cat /etc/gs*', 'account and privilege'],
    ['cat /etc/ss?/ssh_host_*_key', 'ssh server keys'],
    ['cat /etc/secur*/opasswd', 'authentication policy'],
    ['cat /etc/ssl/priv*/*', 'TLS private keys'],
    ['cat /ro?t/.bashrc', 'superuser'],
    ['cat /bo?t/grub/grub.cfg', 'boot loader passwords'],
    ['cat /s?s/kernel/vmcoreinfo', 'kernel secrets'],
    ['cat /proc/sel?/environ', 'process memory'],
    ['cat /dev/me?', 'physical memory'],
    ['gzip -c /dev/sd?', 'raw block devices'],
    ['cat ~/.config/custo*/config.yaml', 'custode config'],
    ['cat ~/.ss?/id_*', 'ssh keys'],
    ['cat ~/.aw?/credentials', 'cloud credentials'],
    ['cat ~/.az*/*', 'cloud credentials'],
    ['cat ~/.config/gclou?/*', 'cloud credentials'],
    ['cat ~/.gnup?/*/*', 'gpg keys'],
    ['cat ~/.net?c', 'stored passwords'],
    ['cat ~/.git-cred*', 'stored passwords'],
    ['cat ~/.password-st*/*', 'stored passwords'],
    ['cat ~/.local/share/keyr*/*', 'stored passwords'],
    ['cat ~/.docke?/config.json', 'container and cluster'],
    ['cat ~/.kub?/config', 'container and cluster'],
  ])('%s names the %s family', (command, family) => {
    const result = shell(command);
    expect(reasonOf(result)).toMatch(/^forbidden path: /);
    expect(reasonOf(result)).toContain(family);
  });
});

describe('neighbours of the families pass', () => {
  it.each([
    '/etc/passwd.txt',
    '/etc/sudoers.dist/x',
    '/etc/hosts',
    '/etc/ssl/certs/ca.pem',
    '/rootfs/x',
    '/bootstrap.sh',
    '/system/x',
    '/proc/cpuinfo',
    '/proc/meminfo',
    '/dev/null',
    '/dev/sda-notes.txt',
    '~/notes/.sshrc',
    '~/.config/custode-notes.md',
    '~/.docker/daemon.json',
    '~/project/.awsome/x',
  ])('fs_read of %s passes', (path) => {
    expect(guardCall({ executor: 'fs_read', args: { path }, home }).blocked).toBe(false);
  });

  // A family known by a file's kind (a *.nmconnection anywhere) keeps its samples out of the
  // places people glob: a sample in ~/Downloads refused every `du -sh ~/Downloads/*`.
  it.each(['file ~/Downloads/*', 'du -sh ~/Downloads/*', 'wc -l ~/Documents/*', 'ls ~/.config/*'])(
    '%s (a glob of an everyday place) passes',
    (command) => {
      expect(shell(command).blocked).toBe(false);
    },
  );

  it.each(['ls /dev/sdb', 'lsblk /dev/nvme0n1', 'stat /dev/mapper/cryptroot'])(
    '%s (device metadata) passes',
    (command) => {
      expect(shell(command).blocked).toBe(false);
    },
  );
});
