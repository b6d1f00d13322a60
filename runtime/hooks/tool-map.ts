// Another agent's tool call (Claude Code's and Codex's tool names and inputs) as the Custode
// call that does the same thing, so one pipeline judges both. A tool Custode has no executor
// for maps to nothing: the hook gives no decision for it.
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';

/** The Custode call a foreign tool call stands for. */
export interface MappedCall {
  readonly executor: string;
  readonly args: Readonly<Record<string, unknown>>;
}

export type ToolMapping =
  | { readonly kind: 'call'; readonly call: MappedCall }
  | { readonly kind: 'unmapped' }
  | { readonly kind: 'malformed'; readonly reason: string };

const filePath = z.string().min(1);
const edit = z.looseObject({ old_string: z.string(), new_string: z.string() });

/**
 * A relative path is the agent's working directory's; `~` stays for the guard to expand (a tool
 * that takes `~` literally would only touch a dir named `~`, and judging it as home is stricter).
 */
function inCwd(path: string, cwd: string): string {
  return isAbsolute(path) || path === '~' || path.startsWith('~/') ? path : resolve(cwd, path);
}

/** An edit with an empty old_string creates the file: judged as the write it is. */
function editCall(path: string, edits: readonly z.infer<typeof edit>[]): MappedCall {
  if (edits.some((e) => e.old_string === '')) {
    return {
      executor: 'fs_write',
      args: { path, content: edits.map((e) => e.new_string).join('\n') },
    };
  }
  const pairs = edits.map((e) => ({ old_text: e.old_string, new_text: e.new_string }));
  const [only] = pairs;
  return pairs.length === 1 && only !== undefined
    ? { executor: 'fs_edit', args: { path, ...only } }
    : { executor: 'fs_multi_edit', args: { path, edits: pairs } };
}

interface ToolSpec<S extends z.ZodType> {
  readonly input: S;
  readonly map: (input: z.infer<S>, cwd: string) => MappedCall;
}

function spec<S extends z.ZodType>(
  input: S,
  map: (input: z.infer<S>, cwd: string) => MappedCall,
): ToolSpec<z.ZodType> {
  return { input, map } as ToolSpec<z.ZodType>;
}

/** Claude Code's built-in tools (Codex sends its shell as Bash too), by the name in `tool_name`. */
const tools: ReadonlyMap<string, ToolSpec<z.ZodType>> = new Map([
  [
    'Bash',
    // The command runs in the session's working directory, as the agent's own shell does.
    spec(z.looseObject({ command: z.string().min(1) }), ({ command }, cwd) => ({
      executor: 'shell_exec',
      args: { command, cwd },
    })),
  ],
  [
    'Read',
    spec(z.looseObject({ file_path: filePath }), ({ file_path }, cwd) => ({
      executor: 'fs_read',
      args: { path: inCwd(file_path, cwd) },
    })),
  ],
  [
    'Write',
    spec(
      z.looseObject({ file_path: filePath, content: z.string() }),
      ({ file_path, content }, cwd) => ({
        executor: 'fs_write',
        args: { path: inCwd(file_path, cwd), content },
      }),
    ),
  ],
  [
    'Edit',
    spec(edit.extend({ file_path: filePath }), (input, cwd) =>
      editCall(inCwd(input.file_path, cwd), [input]),
    ),
  ],
  [
    'MultiEdit',
    spec(z.looseObject({ file_path: filePath, edits: z.array(edit).min(1) }), (input, cwd) =>
      editCall(inCwd(input.file_path, cwd), input.edits),
    ),
  ],
  [
    'Glob',
    spec(
      z.looseObject({ pattern: z.string().min(1), path: filePath.optional() }),
      ({ pattern, path }, cwd) => ({
        executor: 'fs_glob',
        args: { pattern, path: inCwd(path ?? cwd, cwd) },
      }),
    ),
  ],
  [
    'Grep',
    spec(
      z.looseObject({ pattern: z.string().min(1), path: filePath.optional() }),
      ({ pattern, path }, cwd) => ({
        executor: 'fs_grep',
        args: { pattern, path: inCwd(path ?? cwd, cwd) },
      }),
    ),
  ],
  [
    'WebFetch',
    spec(z.looseObject({ url: z.string().min(1) }), ({ url }) => ({
      executor: 'web_fetch',
      args: { url },
    })),
  ],
]);

/** The Custode call for one foreign tool call; `cwd` is the agent's working directory. */
export function mapToolCall(toolName: string, toolInput: unknown, cwd: string): ToolMapping {
  const tool = tools.get(toolName);
  if (tool === undefined) return { kind: 'unmapped' };
  const parsed = tool.input.safeParse(toolInput);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((issue) => `tool_input.${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    return {
      kind: 'malformed',
      reason: `${toolName} input is not what ${toolName} takes: ${issues}`,
    };
  }
  return { kind: 'call', call: tool.map(parsed.data, cwd) };
}
