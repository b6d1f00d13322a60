// Writes that never leave a half-written file: a temp file in the same directory (same
// filesystem, so rename is atomic), then rename over the target.
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import type { FsOps } from './ops/fs-ops.ts';
import { withFsErrors } from './fs-errors.ts';

/** Replace `path` with `data` atomically; on failure the old content is untouched and the temp file removed. */
export async function writeFileAtomic(
  fs: FsOps,
  path: string,
  data: string | Buffer,
): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  await withFsErrors(path, async () => {
    try {
      await fs.writeFile(temp, data);
      await fs.rename(temp, path);
    } catch (error) {
      await fs.unlink(temp).catch(() => undefined);
      throw error;
    }
  });
}
