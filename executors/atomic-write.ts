// Writes that never leave a half-written file: a temp file in the same directory (same
// filesystem, so rename is atomic), then rename over the target.
import { basename, dirname, join } from 'node:path';
import type { FsOps } from './ops/fs-ops.ts';
import { withFsErrors } from './fs-errors.ts';

/**
 * Replace `path` with `data` atomically; on failure the old content is untouched and the temp
 * file removed. A symlink is written through (the scope stage checked its real path) and an
 * existing file keeps its permission bits. With `createOnly`, the file appears whole or not at
 * all and an existing one is never replaced (EEXIST), however late it appeared.
 */
export async function writeFileAtomic(
  fs: FsOps,
  path: string,
  data: string | Buffer,
  options: { readonly createOnly?: boolean } = {},
): Promise<void> {
  const target = await fs.realpath(path).catch(() => path);
  const previous = await fs.stat(target).catch(() => undefined);
  const temp = join(
    dirname(target),
    `.${basename(target)}.${process.getBuiltinModule('node:crypto').randomBytes(6).toString('hex')}.tmp`,
  );
  await withFsErrors(path, async () => {
    try {
      await fs.writeFile(temp, data);
      if (previous !== undefined) await fs.chmod(temp, previous.mode & 0o7777);
      if (options.createOnly === true) {
        await fs.link(temp, target);
        await fs.unlink(temp);
      } else await fs.rename(temp, target);
    } catch (error) {
      await fs.unlink(temp).catch(() => undefined);
      throw error;
    }
  });
}
