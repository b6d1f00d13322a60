// fs_delete: remove a file, a link or a directory (non-empty only with recursive: true).
import * as z from 'zod';
import { InvalidArguments } from '../runtime/errors.ts';
import { defineExecutor } from './define.ts';
import { withFsErrors } from './fs-errors.ts';
import { resolveInRoots } from './boundary.ts';

/** Delete a path; a non-empty directory is refused unless `recursive` is true. Links are removed, not followed. */
export const fsDelete = defineExecutor({
  name: 'fs_delete',
  description:
    "Delete a file or an empty directory; a delete needs the person's approval. A directory that is not empty is deleted only with recursive: true.",
  args: z.lazy(() =>
    z.strictObject({
      path: z.string().min(1).describe('File or directory to delete; ~ is the home directory.'),
      recursive: z
        .boolean()
        .optional()
        .describe('Delete a non-empty directory and everything in it.'),
    }),
  ),
  capabilities: { access: 'write', pathArgs: ['path'] },
  critical: true,
  skipJudge: false,
  async run(args, ctx) {
    const path = await resolveInRoots(args.path, 'write', ctx, { followLink: false });
    const stats = await withFsErrors(path, () => ctx.ops.fs.lstat(path));
    if (!stats.isDirectory()) {
      await withFsErrors(path, () => ctx.ops.fs.unlink(path));
      return { path, deleted: 'file' as const };
    }
    if (args.recursive === true) {
      await withFsErrors(path, () => ctx.ops.fs.rm(path, { recursive: true }));
      return { path, deleted: 'directory' as const };
    }
    const entries = await withFsErrors(path, () => ctx.ops.fs.readdir(path));
    if (entries.length > 0) {
      throw new InvalidArguments(
        `${path} is a directory with ${String(entries.length)} entries; pass recursive: true to delete it and its contents`,
      );
    }
    await withFsErrors(path, () => ctx.ops.fs.rmdir(path));
    return { path, deleted: 'directory' as const };
  },
});
