// fs_list: the entries of one directory, directories marked with a trailing `/`.
import * as z from 'zod';
import { InvalidArguments } from '../runtime/errors.ts';
import { defineExecutor } from './define.ts';
import { withFsErrors } from './fs-errors.ts';
import { join } from 'node:path';
import { resolveInRoots } from './boundary.ts';
import { protectedCheck } from './protected-places.ts';
import { shownNames } from './shown-text.ts';

/** A listing longer than this is cut: the model cannot use more, and it would flood the context. */
export const maxListEntries = 2000;

/** List a directory's entries, sorted by name; directories end with `/`. */
export const fsList = defineExecutor({
  name: 'fs_list',
  description:
    'List the entries of a directory, sorted by name. Directory names end with "/"; very long listings are cut (truncated: true); protected places (keys, tokens, Custode\'s own state) are left out and counted (protected_omitted).',
  args: z.lazy(() =>
    z.strictObject({
      path: z.string().min(1).describe('Directory to list; ~ is the home directory.'),
    }),
  ),
  capabilities: { access: 'read', pathArgs: ['path'] },
  critical: false,
  skipJudge: true,
  async run(args, ctx) {
    const path = await resolveInRoots(args.path, 'read', ctx);
    const stats = await withFsErrors(path, () => ctx.ops.fs.stat(path));
    if (!stats.isDirectory()) throw new InvalidArguments(`${path} is not a directory; use fs_read`);
    const all = await withFsErrors(path, () => ctx.ops.fs.readdir(path));
    // A protected place is not named either: the listing says only how many it left out.
    const isProtected = protectedCheck(ctx.env);
    const entries = all.filter((entry) => isProtected(join(path, entry.name)) === null);
    const names = entries.map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name));
    names.sort();
    return {
      path,
      entries: shownNames(names.slice(0, maxListEntries), ctx.grant),
      truncated: names.length > maxListEntries,
      ...(entries.length < all.length ? { protected_omitted: all.length - entries.length } : {}),
    };
  },
});
