// The text of a small existing file, for a decision that judges what a line runs or feeds from a
// file the line did not write itself (`bash bomb.sh`, `xargs rm -rf < list`). Synchronous: it
// sits on the decision's path. Opened without blocking (a FIFO must not stall a decision) and
// read only when it is a regular file of at most SMALL_TEXT_CAP bytes.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** Larger files are not read: a script or list worth judging this way is short. */
export const SMALL_TEXT_CAP = 64 * 1024;

/** The file's text, or null when it is missing, not a regular file, too large or unreadable. */
export function readSmallText(path: string): string | null {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > SMALL_TEXT_CAP) return null;
    const buffer = Buffer.alloc(stats.size);
    const read = readSync(fd, buffer, 0, stats.size, 0);
    return buffer.subarray(0, read).toString('utf8');
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
