// Reading a whole text file for the text tools (fs_read, fs_edit, fs_multi_edit), with the
// checks they share: it exists, it is a file, it is small enough to hold in memory.
import { InvalidArguments, OutputSizeLimitExceeded } from '../runtime/errors.ts';
import type { ExecutorContext } from './define.ts';
import { withFsErrors } from './fs-errors.ts';

/** Above this a file is not loaded whole: the model cannot use that much text anyway. */
export const maxTextFileBytes = 64 * 1024 * 1024;

/** The UTF-8 text of `path` (absolute); NotFound, InvalidArguments for a directory, OutputSizeLimitExceeded when huge. */
export async function readTextFile(path: string, ctx: ExecutorContext): Promise<string> {
  const stats = await withFsErrors(path, () => ctx.ops.fs.stat(path));
  if (stats.isDirectory()) {
    throw new InvalidArguments(`${path} is a directory; use fs_list to see its entries`);
  }
  if (stats.size > maxTextFileBytes) {
    throw new OutputSizeLimitExceeded(
      `${path} is ${String(stats.size)} bytes, more than the ${String(maxTextFileBytes)} the file tools load; use shell_exec with head, tail or sed to work on part of it`,
    );
  }
  return (await withFsErrors(path, () => ctx.ops.fs.readFile(path))).toString('utf8');
}
