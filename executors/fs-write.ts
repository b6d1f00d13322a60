// fs_write: create or replace a whole file, atomically.
import { dirname } from 'node:path';
import * as z from 'zod';
import { InvalidArguments } from '../runtime/errors.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { defineExecutor } from './define.ts';
import { withFsErrors } from './fs-errors.ts';
import { assertStillRecoverable, resolveInRoots } from './boundary.ts';

/** Write `content` to a file (temp file + rename); parent dirs are created only when asked. */
export const fsWrite = defineExecutor({
  name: 'fs_write',
  description:
    "Create a new file, or replace the whole content of an existing one (that waits for the person's approval: to change part of a file, use fs_edit). Set create_dirs to create missing parent directories.",
  args: z.lazy(() =>
    z.strictObject({
      path: z.string().min(1).describe('File to write; ~ is the home directory.'),
      content: z.string().describe('The complete new content of the file.'),
      create_dirs: z.boolean().optional().describe('Create missing parent directories.'),
    }),
  ),
  capabilities: { access: 'write', pathArgs: ['path'] },
  critical: true,
  skipJudge: false,
  async run(args, ctx) {
    const path = await resolveInRoots(args.path, 'write', ctx);
    await assertStillRecoverable(path, ctx);
    const existing = await ctx.ops.fs.stat(path).catch(() => undefined);
    if (existing?.isDirectory()) throw new InvalidArguments(`${path} is a directory`);
    if (args.create_dirs === true) {
      await withFsErrors(dirname(path), () => ctx.ops.fs.mkdir(dirname(path), { recursive: true }));
    }
    // A call no person saw was allowed as a new file: it must not replace one that appeared since.
    const createOnly = ctx.grant.by === 'tier' && !ctx.grant.replaces;
    await writeFileAtomic(ctx.ops.fs, path, args.content, { createOnly });
    return {
      path,
      bytes: Buffer.byteLength(args.content, 'utf8'),
      created: existing === undefined,
    };
  },
});
