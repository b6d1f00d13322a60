// fs_grep: search file contents with a regular expression, one `path:line:text` per match.
import { availableParallelism } from 'node:os';
import * as z from 'zod';
import { credentialFileByName } from '../constitution/credential-files.ts';
import { ANY_BINARY_SECRET_STORE, SIGNATURE_BYTES } from '../constitution/binary-secret-stores.ts';
import {
  ANY_CREDENTIAL,
  BASE64_RUN,
  ENV_CREDENTIAL,
  HEX_RUN,
  GIT_CONFIG_NAMES,
  storedCredentialIn,
  TOOL_CONFIG_CREDENTIAL,
} from '../constitution/stored-credentials.ts';
import { InvalidArguments } from '../runtime/errors.ts';
import { defineExecutor, type ExecutorContext } from './define.ts';
import { withFsErrors } from './fs-errors.ts';
import { globToRegExp } from './glob-match.ts';
import { resolveInRoots } from './boundary.ts';
import { resolvePath } from './resolve-path.ts';
import { shownNames, shownText } from './shown-text.ts';
import { protectedCheck } from './protected-places.ts';
import { createFileSearcher, type FileHits } from './search-worker.ts';
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

/** Largest git config read to see whether it holds a login. */
const maxConfigBytes = 1024 * 1024;

/**
 * True when a file met by the walk holds a credential its place does not protect: by its name
 * (a dotenv file, a key store: constitution/credential-files.ts), or a git config (a bare
 * repository's, or one below a `.git` the search started in) holding a login.
 */
async function holdsCredential(path: string, name: string, ctx: ExecutorContext): Promise<boolean> {
  if (credentialFileByName(name) !== null) return true;
  if (!GIT_CONFIG_NAMES.has(name)) return false;
  const stats = await ctx.ops.fs.stat(path).catch(() => undefined);
  if (stats === undefined || stats.size > maxConfigBytes) return stats !== undefined;
  const text = await ctx.ops.fs.readFile(path).then(
    (data) => data.toString('utf8'),
    () => '',
  );
  return storedCredentialIn(text) !== null;
}

/** Where the home's tool configs sit: below its dot-places, as written and with links resolved. */
async function homeDotPrefixes(ctx: ExecutorContext): Promise<string[]> {
  const home = resolvePath('~', ctx.env);
  const real = await ctx.ops.fs.realpath(home).catch(() => home);
  return [...new Set([home, real])].filter((top) => top !== '/').map((top) => `${top}/.`);
}

/** What a walk leaves out of a search: counted, never named. */
interface Withheld {
  count: number;
}

async function* candidateFiles(
  root: string,
  isDirectory: boolean,
  include: RegExp | undefined,
  budget: WalkBudget,
  withheld: Withheld,
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
    if (await holdsCredential(entry.path, name, ctx)) {
      withheld.count += 1;
      continue;
    }
    yield { path: entry.path, label: entry.relative };
  }
}

/**
 * Worker threads that read and search a tree's files, batches in turn: two where there are two
 * cores (the walk on the main thread keeps pace with them), one on a single core.
 */
export const searchWorkers = Math.min(2, availableParallelism());

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
  args: z.lazy(() =>
    z.strictObject({
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
  ),
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
    // A tree's files that hold a credential are left out, by name or by a key block, token or
    // login in their text (a person asked for a file itself: the card said what it holds).
    const withheld: Withheld = { count: 0 };
    const searcher = createFileSearcher({
      pattern: regex.source,
      flags: regex.flags,
      deadline: Date.now() + ctx.config.sandbox.default_timeout_ms,
      workers: searchWorkers,
      maxFileBytes,
      maxLineChars,
      ...(stats.isDirectory()
        ? {
            withhold: {
              pattern: ANY_CREDENTIAL.source,
              flags: ANY_CREDENTIAL.flags,
              // A hard link may be a dotenv file under its other name.
              multiNamed: {
                pattern: ENV_CREDENTIAL.pattern.source,
                flags: ENV_CREDENTIAL.pattern.flags,
              },
              // A binary store under an ordinary name, known by its signature.
              head: {
                pattern: ANY_BINARY_SECRET_STORE.source,
                flags: ANY_BINARY_SECRET_STORE.flags,
                bytes: SIGNATURE_BYTES,
              },
              // A token in base64 or hex, which a line shown alone would print in pieces.
              encoded: {
                runs: [BASE64_RUN, HEX_RUN].map((run) => ({
                  pattern: run.source,
                  flags: run.flags,
                })),
              },
              // A tool's config in the home keeps its login as a setting (password: …).
              toolConfig: {
                pattern: TOOL_CONFIG_CREDENTIAL.pattern.source,
                flags: TOOL_CONFIG_CREDENTIAL.pattern.flags,
                prefixes: await homeDotPrefixes(ctx),
              },
            },
          }
        : {}),
    });
    const matches: string[] = [];
    const result = (truncated: boolean) => ({
      root,
      matches,
      truncated,
      ...(withheld.count > 0 ? { credentials_withheld: withheld.count } : {}),
    });
    /** Add a batch's hits; false once the limit is reached. */
    const add = (batch: readonly { label: string }[], hits: FileHits[]): boolean => {
      for (const [n, file] of batch.entries()) {
        const found = hits[n];
        if (found === null) withheld.count += 1;
        if (found === null || found === undefined || found.length === 0) continue;
        // The name is cut as the line is: it can hold a credential (`report.pdf?access_token=…`).
        const [label] = shownNames([file.label], ctx.grant);
        for (const [line, text] of found) {
          if (matches.length === limit) return false;
          matches.push(`${label ?? ''}:${String(line)}:${shownText(text, ctx.grant)}`);
        }
      }
      return true;
    };
    try {
      const files = candidateFiles(root, stats.isDirectory(), include, budget, withheld, ctx);
      // Each worker searches a batch while the walk gathers the next; hits are added in walk order.
      const searching: { batch: { label: string }[]; hits: Promise<FileHits[]> }[] = [];
      for await (const batch of batches(files)) {
        // One more than the room left, to tell a search that stopped from one that ended.
        const hits = searcher.search(
          batch.map((file) => file.path),
          limit - matches.length + 1,
        );
        // Awaited below; until then a rejection (the deadline) must not go unhandled.
        hits.catch(() => undefined);
        searching.push({ batch, hits });
        if (searching.length <= searchWorkers) continue;
        const oldest = searching.shift();
        if (oldest !== undefined && !add(oldest.batch, await oldest.hits)) return result(true);
      }
      for (const each of searching) if (!add(each.batch, await each.hits)) return result(true);
    } finally {
      await searcher.close();
    }
    return result(budget.remaining === 0);
  },
});
