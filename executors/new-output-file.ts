// The one new file code nobody reviewed may write (runtime/pipeline/workspace/code-output.ts): made
// here, empty, right before the run, so the sandbox can bind that file alone read-write. Made with
// O_CREAT|O_EXCL: whatever stands at the name by then (a file, a symbolic or hard link planted
// since the decision, a FIFO, a device) fails the call instead of being opened; and its directory
// must still be the one the decision resolved, not a link swapped in for it.
import { constants } from 'node:fs';
import { lstat, open, realpath, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PermissionDenied } from '../runtime/errors.ts';

/** The file as made: its device and inode, to know it again after the run. */
export interface MadeFile {
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
}

const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

function changed(path: string, why: string): PermissionDenied {
  return new PermissionDenied(
    `${path} ${why} since it was allowed without approval as a new file; propose the call again`,
  );
}

/** True when the directory still resolves to itself: no link stands in for it or above it. */
async function inPlace(dir: string): Promise<boolean> {
  return (await realpath(dir).catch(() => null)) === dir;
}

/** Make `path` empty (mode 0644 before the umask); refuse when anything is there or it moved. */
export async function makeNewOutputFile(path: string): Promise<MadeFile> {
  const dir = dirname(path);
  if (!(await inPlace(dir))) throw changed(path, 'is no longer in the directory it was judged in');
  const handle = await open(path, CREATE_NEW, 0o644).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'EEXIST' ? changed(path, 'has appeared') : error;
  });
  const { dev, ino } = await handle.stat().finally(() => handle.close());
  if (!(await inPlace(dir))) throw changed(path, 'is no longer in the directory it was judged in');
  return { path, dev, ino };
}

/**
 * After a run that failed: the file made for it, still empty and still the same file, is removed,
 * so the corrected call can make it again (else it would exist and ask).
 */
export async function dropIfUnused(made: MadeFile): Promise<void> {
  const now = await lstat(made.path).catch(() => null);
  if (now?.isFile() === true && now.size === 0 && now.dev === made.dev && now.ino === made.ino)
    await unlink(made.path).catch(() => undefined);
}
