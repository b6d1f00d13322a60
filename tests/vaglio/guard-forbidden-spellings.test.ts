// The forbidden system families by how their paths are really spelled: devices numbered past 9
// (md127, loop12, nvme10n1, sdaa), a family's directory named alone (/etc/ssh, not only a file
// in it), a process path several levels deep, a distribution's own EFI directory; and the
// neighbours that must not be caught: a container image's root tree kept in a project (its
// etc/ssh/sshd_config is the person's file, not the host's), plain /proc and /sys information
// whose name begins like a secret's. Paths written here, not the constitution's samples. Home
// outside /home (/data/ada).
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../../runtime/shell/parse.ts';
import { guardCall } from '../../runtime/vaglio/guard.ts';
import { guardShell, reasonOf } from './guard-helpers.ts';

const home = '/data/ada';

beforeAll(async () => {
  await initShellParser();
});

function read(path: string): string {
  return reasonOf(guardCall({ executor: 'fs_read', args: { path }, home }));
}

const DEVICES = [
  '/dev/sda',
  '/dev/sdaa',
  '/dev/sdab3',
  '/dev/sdb15',
  '/dev/hdc',
  '/dev/vdb12',
  '/dev/xvdba',
  '/dev/nvme0n1',
  '/dev/nvme10n1',
  '/dev/nvme0n12',
  '/dev/nvme1n1p12',
  '/dev/nvme0',
  '/dev/mmcblk0',
  '/dev/mmcblk12',
  '/dev/mmcblk0p10',
  '/dev/disk3',
  '/dev/disk12',
  '/dev/rdisk2s10',
  '/dev/disk2s1',
  '/dev/dm-12',
  '/dev/md127',
  '/dev/loop12',
  '/dev/sr10',
  '/dev/disk/by-id/nvme-Samsung_SSD_980_1TB_S64ANS0T123456',
  '/dev/disk/by-partuuid/0f1e2d3c-01',
  '/dev/mapper/vg0-root',
  '/dev/mapper/luks-3b4f',
];

describe('a raw block device, whatever its number', () => {
  it.each(DEVICES)('reading %s names the raw block devices family', (device) => {
    expect(read(device)).toContain('forbidden path: raw block devices');
  });

  it.each(DEVICES)('wipefs -a %s is a write onto a block device', (device) => {
    expect(reasonOf(guardShell(`wipefs -a ${device}`, home))).toBe(
      'dangerous shell: write onto a block device',
    );
  });

  it.each(['/dev/sda-backup.img', '/dev/nvme', '/dev/loop-control', '/dev/disk', '/dev/mapper'])(
    '%s is no block device',
    (path) => {
      expect(read(path)).not.toContain('raw block devices');
    },
  );
});

describe("a system family's directory named alone, and its files deep down", () => {
  it.each([
    ['/etc/ssh', 'ssh server keys'],
    ['/etc/ssh/', 'ssh server keys'],
    ['/etc/security', 'authentication policy'],
    ['/etc/ssl/private', 'TLS private keys'],
    ['/etc/sudoers.d', 'account and privilege'],
    ['/etc/sudoers.d/', 'account and privilege'],
    ['/etc/gshadow-', 'account and privilege'],
    ['/root', 'superuser'],
    ['/sys/kernel', 'kernel secrets'],
    ['/sys/firmware', 'kernel secrets'],
    ['/proc/1234/task/1234/environ', 'process memory'],
    ['/proc/1/root/etc/hostname', 'process memory'],
    ['/proc/kcore', 'process memory'],
    ['/dev/kmem', 'physical memory'],
    ['/boot/efi/EFI/ubuntu/grub.cfg', 'boot loader passwords'],
    ['/boot/efi/EFI/fedora/user.cfg', 'boot loader passwords'],
    ['/boot/grub2/grub.cfg', 'boot loader passwords'],
  ])('reading %s names the %s family', (path, family) => {
    expect(read(path)).toMatch(/^forbidden path: /);
    expect(read(path)).toContain(family);
  });
});

// A PCI device's files sit below its address (0000:00:02.0), whose colons end a path inside
// prose; a path argument is a path whole, colons and all.
describe("a PCI device's config space, memory and ROM, colons in its address", () => {
  const PCI = [
    '/sys/bus/pci/devices/0000:00:02.0/config',
    '/sys/bus/pci/devices/0000:00:02.0/resource0',
    '/sys/devices/pci0000:00/0000:00:1f.3/resource',
    '/sys/devices/pci0000:00/0000:00:02.0/resource2_wc',
    '/sys/devices/pci0000:00/0000:00:02.0/rom',
  ];
  it.each(PCI.flatMap((path) => ['fs_read', 'fs_write', 'fs_list'].map((tool) => [tool, path])))(
    '%s of %s names the kernel secrets family',
    (executor, path) => {
      const result = guardCall({ executor, args: { path, content: 'x' }, home });
      expect(reasonOf(result)).toMatch(/^forbidden path: kernel secrets/);
    },
  );
  it.each(PCI)('cat %s names the kernel secrets family', (path) => {
    expect(reasonOf(guardShell(`cat ${path}`, home))).toMatch(/^forbidden path: kernel secrets/);
  });
  it.each(['/sys/bus/pci/devices/0000:00:02.0/vendor', '/sys/bus/pci/devices/0000:00:02.0/class'])(
    'reading %s (plain device information) passes',
    (path) => {
      expect(read(path)).toBe('PASS');
    },
  );
});

describe('neighbours of the system families pass', () => {
  it.each([
    // A container image's root tree in a project: the person's files, not the host's.
    '~/app/rootfs/etc/passwd',
    '~/app/rootfs/etc/sudoers.d/app',
    '~/app/rootfs/etc/ssh/sshd_config',
    '~/app/rootfs/etc/security/limits.conf',
    '~/app/rootfs/etc/ssl/private/README',
    '~/app/rootfs/root/.bashrc',
    '~/app/rootfs/boot/grub/grub.cfg',
    // Plain system information whose name begins like a secret's.
    '/proc/self/timerslack_ns',
    '/proc/self/status',
    '/sys/devices/system/memory/block_size_bytes',
    '/sys/class/power_supply/BAT0/capacity',
    '/boot/efi/EFI/ubuntu/shimx64.efi',
  ])('reading %s passes', (path) => {
    expect(read(path)).toBe('PASS');
  });
});
