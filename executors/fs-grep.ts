// fs_grep: search file contents with a regular expression, one `path:line:text` per match.
import { z } from 'zod';
import { InvalidArguments } from '../runtime/errors.ts';
import { defineExecutor, type ExecutorContext } from './define.ts';
import { withFsErrors } from './fs-errors.ts';
import { globToRegExp } from './glob-match.ts';
import { resolveInRoots } from './boundary.ts';
import { protectedCheck } from './protected-places.ts';
import { createFileSearcher, type LineHit } from './search-worker.ts';
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
    yield { path: entry.path, label: entry.relative };
  }
}

/** Paths sent to the search worker in one message. */
const batchSize = 256;

/** The candidates in walk order, batchSize at a time. */
async function* batches<T>(items: AsyncIterable<T>): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length < batchSize) continue;
    yield batch;
    batch = [];
  }
  if (batch.length > 0) yield batch;
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
    const searcher = createFileSearcher({
      pattern: regex.source,
      flags: regex.flags,
      deadline: Date.now() + ctx.config.sandbox.default_timeout_ms,
      maxFileBytes,
      maxLineChars,
    });
    const matches: string[] = [];
    /** Add a batch's hits; false once the limit is reached. */
    const add = (batch: readonly { label: string }[], hits: LineHit[][]): boolean => {
      for (const [n, file] of batch.entries()) {
        for (const [line, text] of hits[n] ?? []) {
          if (matches.length === limit) return false;
          matches.push(`${file.label}:${String(line)}:${text}`);
        }
      }
      return true;
    };
    try {
      const files = candidateFiles(root, stats.isDirectory(), include, budget, ctx);
      // One batch is searched while the walk gathers the next.
      let searching: { batch: { label: string }[]; hits: Promise<LineHit[][]> } | undefined;
      for await (const batch of batches(files)) {
        // One more than the room left, to tell a search that stopped from one that ended.
        const hits = searcher.search(
          batch.map((file) => file.path),
          limit - matches.length + 1,
        );
        // Awaited below; until then a rejection (the deadline) must not go unhandled.
        hits.catch(() => undefined);
        if (searching !== undefined && !add(searching.batch, await searching.hits)) {
          return { root, matches, truncated: true };
        }
        searching = { batch, hits };
      }
      if (searching !== undefined && !add(searching.batch, await searching.hits)) {
        return { root, matches, truncated: true };
      }
    } finally {
      await searcher.close();
    }
    return { root, matches, truncated: budget.remaining === 0 };
  },
});
