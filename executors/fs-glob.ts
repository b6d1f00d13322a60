// fs_glob: find paths by glob pattern under a root directory.
import * as z from 'zod';
import { InvalidArguments } from '../runtime/errors.ts';
import { defineExecutor } from './define.ts';
import { withFsErrors } from './fs-errors.ts';
import { globToRegExp } from './glob-match.ts';
import { resolveInRoots } from './boundary.ts';
import { protectedCheck } from './protected-places.ts';
import { shownNames } from './shown-text.ts';
import { maxWalkEntries, walkTree } from './walk.ts';

/** Paths under `path` (default ~) matching the glob, relative to that root, sorted; directories end with `/`. */
export const fsGlob = defineExecutor({
  name: 'fs_glob',
  description:
    'Find files and directories whose path matches a glob such as "**/*.md" or "src/*.{ts,js}". Returned paths are relative to the root directory.',
  args: z.lazy(() =>
    z.strictObject({
      pattern: z
        .string()
        .min(1)
        .describe('Glob: * and ? stay within one directory, ** spans directories.'),
      path: z.string().min(1).optional().describe('Root directory to search from; default ~.'),
      max_results: z.number().int().positive().max(10_000).optional().describe('Default 1000.'),
    }),
  ),
  capabilities: { access: 'read', pathArgs: ['path'] },
  critical: false,
  skipJudge: true,
  async run(args, ctx) {
    const root = await resolveInRoots(args.path ?? '~', 'read', ctx);
    const regex = globToRegExp(args.pattern);
    const limit = args.max_results ?? 1000;
    const stats = await withFsErrors(root, () => ctx.ops.fs.stat(root));
    if (!stats.isDirectory()) throw new InvalidArguments(`${root} is not a directory`);
    const matches: string[] = [];
    let truncated = false;
    const budget = { remaining: maxWalkEntries };
    for await (const entry of walkTree(
      ctx.ops.fs,
      root,
      ctx.signal,
      protectedCheck(ctx.env),
      budget,
    )) {
      if (!regex.test(entry.relative)) continue;
      if (matches.length === limit) {
        truncated = true;
        break;
      }
      matches.push(entry.isDirectory ? `${entry.relative}/` : entry.relative);
    }
    matches.sort();
    return {
      root,
      matches: shownNames(matches, ctx.grant),
      truncated: truncated || budget.remaining === 0,
    };
  },
});
