// fs_mkdir: create a directory (and its parents).
import * as z from 'zod';
import { defineExecutor } from './define.ts';
import { withFsErrors } from './fs-errors.ts';
import { resolveInRoots } from './boundary.ts';

/** Create a directory with its missing parents; an existing directory is not an error. */
export const fsMkdir = defineExecutor({
  name: 'fs_mkdir',
  description:
    'Create a directory, including any missing parent directories (use it rather than mkdir in the shell).',
  args: z.lazy(() =>
    z.strictObject({
      path: z.string().min(1).describe('Directory to create; ~ is the home directory.'),
    }),
  ),
  capabilities: { access: 'write', pathArgs: ['path'] },
  critical: true,
  skipJudge: false,
  async run(args, ctx) {
    const path = await resolveInRoots(args.path, 'write', ctx);
    const existed = await ctx.ops.fs.stat(path).then(
      (stats) => stats.isDirectory(),
      () => false,
    );
    await withFsErrors(path, () => ctx.ops.fs.mkdir(path, { recursive: true }));
    return { path, created: !existed };
  },
});
