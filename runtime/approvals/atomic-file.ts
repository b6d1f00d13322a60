// Durable small-file writes for the approval and rule stores: a crash mid-write leaves
// either the old file or the new one, never half of either.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Write `text` to `path` atomically: temp file in the same dir, fsync, rename, fsync the dir. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = join(dir, `.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncDir(dir);
}

/** fsync a directory so a rename in it survives a power cut (best effort: not every FS allows it). */
export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => null);
  if (handle === null) return;
  try {
    await handle.sync();
  } catch {
    // Some filesystems refuse fsync on a directory; the rename itself is still atomic.
  } finally {
    await handle.close();
  }
}

/** True for a "no such file" error, the one expected failure of a read or rename here. */
export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

/** The file's text, or null when it does not exist (any other failure throws). */
export async function readTextFile(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}
