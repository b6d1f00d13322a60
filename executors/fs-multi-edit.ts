// fs_multi_edit: several one-occurrence edits to one file, all applied or none.
import * as z from 'zod';
import { writeFileAtomic } from './atomic-write.ts';
import { defineExecutor } from './define.ts';
import { replaceOnce } from './edit-text.ts';
import { readTextFile } from './text-file.ts';
import { assertStillRecoverable, resolveInRoots } from './boundary.ts';

/** Apply edits in order on the text in memory, then write once: any failing edit writes nothing. */
export const fsMultiEdit = defineExecutor({
  name: 'fs_multi_edit',
  description:
    'Apply several edits to one file in order; each old_text must occur exactly once at its turn. Either all edits are applied or none.',
  args: z.lazy(() =>
    z.strictObject({
      path: z.string().min(1).describe('File to edit; ~ is the home directory.'),
      edits: z
        .array(
          z.strictObject({
            old_text: z.string().min(1).describe('Exact text to replace; must occur exactly once.'),
            new_text: z.string().describe('Replacement text.'),
          }),
        )
        .min(1),
    }),
  ),
  capabilities: { access: 'write', pathArgs: ['path'] },
  critical: true,
  skipJudge: false,
  async run(args, ctx) {
    const path = await resolveInRoots(args.path, 'write', ctx);
    await assertStillRecoverable(path, ctx);
    const original = await readTextFile(path, ctx);
    const edited = args.edits.reduce(
      (text, edit, index) =>
        replaceOnce(text, edit.old_text, edit.new_text, `${path} (edit ${String(index + 1)})`),
      original,
    );
    await writeFileAtomic(ctx.ops.fs, path, edited);
    return { path, replaced: args.edits.length };
  },
});
