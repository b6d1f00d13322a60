// fs_grep: search file contents with a regular expression, one `path:line:text` per match.
import { relative } from 'node:path';
import { z } from 'zod';
import { InvalidArguments } from '../runtime/errors.ts';
import { defineExecutor, type ExecutorContext } from './define.ts';
import { withFsErrors } from './fs-errors.ts';
import { globToRegExp } from './glob-match.ts';
import { resolveInRoots } from './boundary.ts';
import { protectedCheck } from './protected-places.ts';
import { createLineMatcher } from './regex-worker.ts';
import { looksBinary } from './text-file.ts';
import { maxWalkEntries, walkTree, type WalkBudget } from './walk.ts';

/** Files larger than this are skipped: a search is for source and notes, not data dumps. */
const maxFileBytes = 4 * 1024 * 1024;
/** A matched line is cut here so one minified file cannot flood the reply. */
const maxLineChars = 400;

function compile(pattern: string, ignoreCase: boolean): RegExp {
  try {
    return new RegExp(pattern, ignoreCase ? 'i' : '');
  } catch (error) {
    throw new InvalidArguments(
      `pattern is not a valid regular expression: ${(error as Error).message}`,
    );
  }
}

async function* candidateFiles(
  root: string,
  isDirectory: boolean,
  include: RegExp | undefined,
  budget: WalkBudget,
  ctx: ExecutorContext,
): AsyncGenerator<{ path: string; label: string }> {
  if (!isDirectory) {
    yield { path: root, label: root };
    return;
  }
  for await (const entry of walkTree(
    ctx.ops.fs,
    root,
    ctx.signal,
    protectedCheck(ctx.env),
    budget,
  )) {
    // Links are not followed (like ripgrep): one could point at a key outside the tree.
    if (entry.isDirectory || entry.isSymbolicLink) continue;
    const name = entry.relative.slice(entry.relative.lastIndexOf('/') + 1);
    if (include && !include.test(entry.relative) && !include.test(name)) continue;
    yield { path: entry.path, label: relative(root, entry.path) };
  }
}

/** The lines of a text file worth searching; undefined for unreadable, huge or binary files. */
async function readSearchable(path: string, ctx: ExecutorContext): Promise<string[] | undefined> {
  const size = await ctx.ops.fs.stat(path).then(
    (stats) => stats.size,
    () => -1,
  );
  if (size < 0 || size > maxFileBytes) return undefined;
  const data = await ctx.ops.fs.readFile(path).catch(() => undefined);
  if (data === undefined || looksBinary(data)) return undefined;
  return data.toString('utf8').split('\n');
}

/** Regex search under a file or directory; paths are relative to a directory root, binary files skipped. */
export const fsGrep = defineExecutor({
  name: 'fs_grep',
  description:
    'Search files for a regular expression. Returns one "path:line:text" per matching line; paths are relative to the searched directory.',
  args: z.strictObject({
    pattern: z.string().min(1).describe('JavaScript regular expression to search for.'),
    path: z.string().min(1).describe('File or directory to search; ~ is the home directory.'),
    glob: z
      .string()
      .min(1)
      .optional()
      .describe('Only search files whose name or relative path matches this glob, e.g. "*.ts".'),
    ignore_case: z.boolean().optional(),
    max_results: z.number().int().positive().max(10_000).optional().describe('Default 200.'),
  }),
  capabilities: { access: 'read', pathArgs: ['path'] },
  critical: false,
  skipJudge: true,
  async run(args, ctx) {
    const root = await resolveInRoots(args.path, 'read', ctx);
    const regex = compile(args.pattern, args.ignore_case === true);
    const include = args.glob === undefined ? undefined : globToRegExp(args.glob);
    const limit = args.max_results ?? 200;
    const stats = await withFsErrors(root, () => ctx.ops.fs.stat(root));
    const budget = { remaining: maxWalkEntries };
    const matcher = createLineMatcher(
      regex.source,
      regex.flags,
      Date.now() + ctx.config.sandbox.default_timeout_ms,
    );
    const matches: string[] = [];
    try {
      for await (const file of candidateFiles(root, stats.isDirectory(), include, budget, ctx)) {
        const lines = await readSearchable(file.path, ctx);
        if (lines === undefined) continue;
        for (const index of await matcher.match(lines)) {
          if (matches.length === limit) return { root, matches, truncated: true };
          const line = lines[index] ?? '';
          matches.push(`${file.label}:${String(index + 1)}:${line.slice(0, maxLineChars)}`);
        }
      }
    } finally {
      await matcher.close();
    }
    return { root, matches, truncated: budget.remaining === 0 };
  },
});
