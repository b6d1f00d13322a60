// fs_read: the text of one file, optionally a window of lines, capped at the output cap.
import * as z from 'zod';
import { defineExecutor } from './define.ts';
import { readTextFile } from './text-file.ts';
import { resolveInRoots } from './boundary.ts';
import { shownText } from './shown-text.ts';

/** Read a UTF-8 text file; `offset`/`limit` select lines (1-based); long output is cut and flagged. */
export const fsRead = defineExecutor({
  name: 'fs_read',
  description:
    'Read a text file and return its content. Use offset (first line, 1-based) and limit (number of lines) to read part of a large file.',
  args: z.lazy(() =>
    z.strictObject({
      path: z.string().min(1).describe('File to read; ~ is the home directory.'),
      offset: z.number().int().positive().optional().describe('First line to return (1-based).'),
      limit: z.number().int().positive().optional().describe('Maximum number of lines to return.'),
    }),
  ),
  capabilities: { access: 'read', pathArgs: ['path'] },
  critical: false,
  skipJudge: true,
  async run(args, ctx) {
    const path = await resolveInRoots(args.path, 'read', ctx);
    // Cut whole, then windowed: a window starting inside a key block still shows none of it.
    const text = shownText(await readTextFile(path, ctx), ctx.grant);
    const lines = text.split('\n');
    const first = (args.offset ?? 1) - 1;
    const window = lines.slice(first, args.limit === undefined ? undefined : first + args.limit);
    const selected = window.join('\n');
    const cap = ctx.config.sandbox.output_cap_bytes;
    const bytes = Buffer.from(selected, 'utf8');
    const truncated = bytes.length > cap;
    return {
      path,
      content: truncated ? bytes.subarray(0, cap).toString('utf8') : selected,
      total_lines: lines.length,
      truncated,
    };
  },
});
