// Reading a whole text file for the text tools (fs_read, fs_edit, fs_multi_edit), with the
// checks they share: it exists, it is a file, it is small enough to hold in memory.
import { InvalidArguments, OutputSizeLimitExceeded } from '../runtime/errors.ts';
import type { ExecutorContext } from './define.ts';
import { withFsErrors } from './fs-errors.ts';

/** Above this a file is not loaded whole: the model cannot use that much text anyway. */
export const maxTextFileBytes = 64 * 1024 * 1024;

/** The UTF-8 text of `path` (absolute); NotFound, InvalidArguments for a directory or binary file, OutputSizeLimitExceeded when huge. */
export async function readTextFile(path: string, ctx: ExecutorContext): Promise<string> {
  const stats = await withFsErrors(path, () => ctx.ops.fs.stat(path));
  if (stats.isDirectory()) {
    throw new InvalidArguments(`${path} is a directory; use fs_list to see its entries`);
  }
  // A pipe, a device or a socket has no end to read to (/dev/zero, a FIFO) or is someone's
  // input (/dev/tty, /dev/stdin): not a file.
  if (!stats.isFile()) {
    throw new InvalidArguments(
      `${path} is not a regular file (a device, pipe or socket); the file tools read files only`,
    );
  }
  if (stats.size > maxTextFileBytes) {
    throw new OutputSizeLimitExceeded(
      `${path} is ${String(stats.size)} bytes, more than the ${String(maxTextFileBytes)} the file tools load; use shell_exec with head, tail or sed to work on part of it`,
    );
  }
  const data = await withFsErrors(path, () => ctx.ops.fs.readFile(path));
  if (looksBinary(data)) {
    throw new InvalidArguments(
      `${path} is a binary file (it contains NUL bytes); the file tools handle text only`,
    );
  }
  return data.toString('utf8');
}

/** A NUL in the first 8 KiB marks a binary file, as git and grep decide it. */
export function looksBinary(data: Buffer): boolean {
  return data.subarray(0, 8192).includes(0);
}
