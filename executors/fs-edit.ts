// fs_edit: replace exactly one occurrence of a text in a file.
import * as z from 'zod';
import { writeFileAtomic } from './atomic-write.ts';
import { defineExecutor } from './define.ts';
import { replaceOnce } from './edit-text.ts';
import { readTextFile } from './text-file.ts';
import { assertStillRecoverable, resolveInRoots } from './boundary.ts';

/** Replace the single occurrence of old_text; zero or several matches leave the file untouched. */
export const fsEdit = defineExecutor({
  name: 'fs_edit',
  description:
    'Replace one exact occurrence of old_text with new_text in a file. old_text must appear exactly once; include surrounding lines to make it unique. Use it rather than sed -i or rewriting the whole file.',
  args: z.lazy(() =>
    z.strictObject({
      path: z.string().min(1).describe('File to edit; ~ is the home directory.'),
      old_text: z.string().min(1).describe('Exact text to replace; must occur exactly once.'),
      new_text: z.string().describe('Replacement text.'),
    }),
  ),
  capabilities: { access: 'write', pathArgs: ['path'] },
  critical: true,
  skipJudge: false,
  async run(args, ctx) {
    const path = await resolveInRoots(args.path, 'write', ctx);
    await assertStillRecoverable(path, ctx);
    const text = await readTextFile(path, ctx);
    await writeFileAtomic(ctx.ops.fs, path, replaceOnce(text, args.old_text, args.new_text, path));
    return { path, replaced: 1 };
  },
});
