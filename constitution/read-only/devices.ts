// Raw devices as operands of read-only rules. The guard lets the device-metadata commands name a
// disk (ls /dev/sda lists a name, size and type); the catalogue agrees only for the tools that
// never open the device for its bytes.

/**
 * Catalogue binaries that only look at a device node: its name, type, size, link target or mount.
 * sgdisk -p, fdisk -l, wipefs and blkid read the disk itself (partition table, superblocks), so
 * a device operand stays a content read for them and they ask.
 */
export const DEVICE_NODE_READERS: ReadonlySet<string> = new Set([
  'ls',
  'stat',
  'lsblk',
  'file',
  'df',
  'readlink',
  'realpath',
]);

/**
 * Options that make a device-node reader read a device's content: file -s reads the first blocks
 * of a block device (a boot sector, a partition table) and file -f reads the names to examine out
 * of the file it is given. With one of these, a device operand is a content read.
 */
export const DEVICE_CONTENT_OPTIONS: ReadonlyMap<string, readonly string[]> = new Map([
  ['file', ['-s', '--special-files', '-f', '--files-from']],
]);
