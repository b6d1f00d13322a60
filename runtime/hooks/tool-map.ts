// Another agent's tool call (Claude Code's and Codex's tool names and inputs) as the Custode
// calls that do the same thing, so one pipeline judges both: one call for most tools, one per
// file for a Codex patch. A tool Custode has no executor for maps to nothing: the hook gives no
// decision for it.
import { isAbsolute } from 'node:path';
import * as z from 'zod';
import { patchedFiles } from './apply-patch.ts';

/** The Custode call a foreign tool call stands for. */
export interface MappedCall {
  readonly executor: string;
  readonly args: Readonly<Record<string, unknown>>;
}

export type ToolMapping =
  | { readonly kind: 'calls'; readonly calls: readonly MappedCall[] }
  | { readonly kind: 'unmapped' }
  | { readonly kind: 'malformed'; readonly reason: string };

const filePath = z.string().min(1);
const edit = z.looseObject({ old_string: z.string(), new_string: z.string() });

/**
 * A relative path is the agent's working directory's; `~` stays for the guard to expand (a tool
 * that takes `~` literally would only touch a dir named `~`, and judging it as home is stricter).
 * Joined, not normalised: a `..` after a link is the kernel's to resolve (the gate judges both).
 */
function inCwd(path: string, cwd: string): string {
  if (isAbsolute(path) || path === '~' || path.startsWith('~/')) return path;
  return `${cwd.replace(/\/+$/, '')}/${path}`;
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

/** The calls a Codex patch stands for, one per file it touches; null when it names none. */
function patchCalls(patch: string, cwd: string): MappedCall[] | null {
  const files = patchedFiles(patch);
  if (files === null) return null;
  let updated: string | undefined;
  return files.flatMap((file): MappedCall[] => {
    const path = inCwd(file.path, cwd);
    switch (file.change) {
      case 'add':
        return [{ executor: 'fs_write', args: { path, content: file.content } }];
      case 'update':
        updated = path;
        // What the hunks leave is not known here: judged as the overwrite it is.
        return [{ executor: 'fs_write', args: { path, content: '' } }];
      case 'move-to': {
        const moved: MappedCall[] = [{ executor: 'fs_write', args: { path, content: '' } }];
        if (updated !== undefined) moved.push({ executor: 'fs_delete', args: { path: updated } });
        return moved;
      }
      case 'delete':
        return [{ executor: 'fs_delete', args: { path } }];
    }
  });
}

interface ToolSpec<S extends z.ZodType> {
  readonly input: S;
  /** The calls, or a reason the input names nothing we can judge (the hook blocks it). */
  readonly map: (input: z.infer<S>, cwd: string) => MappedCall | readonly MappedCall[] | string;
}

/** A tool's input schema is built when a call of that tool first comes (a hook judges one). */
function spec<S extends z.ZodType>(
  input: () => S,
  map: (input: z.infer<S>, cwd: string) => MappedCall | readonly MappedCall[] | string,
): ToolSpec<z.ZodType> {
  return { input: z.lazy(input), map } as ToolSpec<z.ZodType>;
}

/**
 * Claude Code's built-in tools (Codex sends its shell as Bash too, and its edits as apply_patch),
 * by the name in `tool_name`.
 */
const tools: ReadonlyMap<string, ToolSpec<z.ZodType>> = new Map([
  [
    'Bash',
    // The command runs in the session's working directory, as the agent's own shell does.
    spec(
      () => z.looseObject({ command: z.string().min(1) }),
      ({ command }, cwd) => ({
        executor: 'shell_exec',
        args: { command, cwd },
      }),
    ),
  ],
  [
    'Read',
    spec(
      () => z.looseObject({ file_path: filePath }),
      ({ file_path }, cwd) => ({
        executor: 'fs_read',
        args: { path: inCwd(file_path, cwd) },
      }),
    ),
  ],
  [
    'Write',
    spec(
      () => z.looseObject({ file_path: filePath, content: z.string() }),
      ({ file_path, content }, cwd) => ({
        executor: 'fs_write',
        args: { path: inCwd(file_path, cwd), content },
      }),
    ),
  ],
  [
    'Edit',
    spec(
      () => edit.extend({ file_path: filePath }),
      (input, cwd) => editCall(inCwd(input.file_path, cwd), [input]),
    ),
  ],
  [
    'MultiEdit',
    spec(
      () => z.looseObject({ file_path: filePath, edits: z.array(edit).min(1) }),
      (input, cwd) => editCall(inCwd(input.file_path, cwd), input.edits),
    ),
  ],
  [
    'Glob',
    spec(
      () => z.looseObject({ pattern: z.string().min(1), path: filePath.optional() }),
      ({ pattern, path }, cwd) => ({
        executor: 'fs_glob',
        args: { pattern, path: inCwd(path ?? cwd, cwd) },
      }),
    ),
  ],
  [
    'Grep',
    // The glob picks the files it opens (ripgrep lets it reach hidden ones): judged with the walk.
    spec(
      () =>
        z.looseObject({
          pattern: z.string().min(1),
          path: filePath.optional(),
          glob: z.string().min(1).optional(),
        }),
      ({ pattern, path, glob }, cwd) => ({
        executor: 'fs_grep',
        args: { pattern, path: inCwd(path ?? cwd, cwd), ...(glob === undefined ? {} : { glob }) },
      }),
    ),
  ],
  [
    'LS',
    spec(
      () => z.looseObject({ path: filePath }),
      ({ path }, cwd) => ({
        executor: 'fs_list',
        args: { path: inCwd(path, cwd) },
      }),
    ),
  ],
  [
    'NotebookEdit',
    // A cell replaced, inserted or deleted rewrites the whole notebook file.
    spec(
      () => z.looseObject({ notebook_path: filePath, new_source: z.string().optional() }),
      ({ notebook_path, new_source }, cwd) => ({
        executor: 'fs_write',
        args: { path: inCwd(notebook_path, cwd), content: new_source ?? '' },
      }),
    ),
  ],
  [
    'apply_patch',
    spec(
      () => z.looseObject({ command: z.string().min(1) }),
      ({ command }, cwd) =>
        patchCalls(command, cwd) ?? 'tool_input.command: not an apply_patch envelope naming a file',
    ),
  ],
  [
    'WebFetch',
    spec(
      () => z.looseObject({ url: z.string().min(1) }),
      ({ url }) => ({
        executor: 'web_fetch',
        args: { url },
      }),
    ),
  ],
]);

/**
 * A word of an input key that says the value names a file or directory the tool opens. Keys are
 * split into words (`relative_path`, `pathInProject`, `repo-path`, `FILE_NAME`), so a server's
 * own name for a path counts as the usual ones do.
 */
const PATH_WORD =
  /^(?:paths?|files?|filepaths?|filenames?|dirs?|directory|directories|folders?|root|cwd|src|sources?|dest|destination|target)$/i;
/** A key whose value is a command line the tool runs as the user (desktop-commander, shell servers). */
const COMMAND_KEY = /^(?:command|cmd|shell_?command|command_?line)$/i;

/** The words of an input key: split at `_`, `-`, `.`, blanks and lower-to-upper case changes. */
function keyWords(key: string): string[] {
  return key.split(/[_\-.\s]+|(?<=[a-z0-9])(?=[A-Z])/).filter((word) => word !== '');
}

/** The path words a tool's input holds under path keys, at any depth; `file://` URIs under any key. */
function pathWords(input: unknown, key = ''): string[] {
  if (typeof input === 'string') {
    if (input.startsWith('file://')) return [decodeURIComponent(input.slice(7))];
    const named = keyWords(key).some((word) => PATH_WORD.test(word));
    return named && input !== '' && !input.includes('\n') ? [input] : [];
  }
  if (Array.isArray(input)) return input.flatMap((item) => pathWords(item, key));
  if (input === null || typeof input !== 'object') return [];
  return Object.entries(input).flatMap(([name, value]) => pathWords(value, name));
}

/** The verbs of a tool's own name that only read (`read_file`, `list_directory`, `search_files`). */
const READ_VERBS =
  /^(?:read|get|list|search|find|grep|glob|view|show|stat|describe|inspect|query|lookup|directory|tree|info|open|cat|ls|head|tail|count|diff|check|validate|preview)$/i;
/** The verbs that write, move or remove, wherever they sit in the name (`files_write`, `mkdir`). */
const WRITE_VERBS =
  /^(?:write|edit|create|delete|remove|rm|move|mv|rename|copy|cp|save|put|post|update|set|append|patch|apply|replace|insert|upload|mkdir|touch|chmod|truncate|exec|run|make|new|modify|change)$/i;

/**
 * True when a tool's name says it only reads: its own name (an MCP tool's after the last `__`)
 * holds a reading verb and no writing one (`read_file`, `NotebookRead`, `directory_tree`). Any
 * other tool is judged as a write too.
 */
function readsOnly(toolName: string): boolean {
  const own = toolName.split('__').at(-1) ?? toolName;
  const words = own.split(/[_\-.\s]+|(?<=[a-z])(?=[A-Z])/).filter((word) => word !== '');
  return words.some((w) => READ_VERBS.test(w)) && !words.some((w) => WRITE_VERBS.test(w));
}

/** The text a writing tool is given to write, for the write's own checks (a token in it). */
function contentOf(input: unknown): string {
  if (input === null || typeof input !== 'object') return '';
  const { content, text, data } = input as Record<string, unknown>;
  const given = [content, text, data].find((value) => typeof value === 'string');
  return typeof given === 'string' ? given : JSON.stringify(input);
}

/** The command lines a tool's input holds under command keys, at its top level. */
function commandLines(input: unknown): string[] {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return [];
  return Object.entries(input).flatMap(([name, value]) =>
    COMMAND_KEY.test(name) && typeof value === 'string' && value.trim() !== '' ? [value] : [],
  );
}

/**
 * What a tool Custode has no executor for (an MCP server's, an older Claude Code tool) opens or
 * runs, as Custode calls: each path it is given is read as a file, and walked for the names below
 * it when it is a directory; unless its name says it only reads, each is also judged as a write of
 * that file (its input does not say which of its paths it writes, moves or removes); a command line
 * it is given is judged as the shell line it is, in the agent's working directory. Its other text
 * is no path (a prompt that mentions one opens nothing).
 */
export function foreignToolCalls(toolName: string, toolInput: unknown, cwd: string): MappedCall[] {
  const writes = !readsOnly(toolName);
  const opened = pathWords(toolInput).flatMap((word): MappedCall[] => {
    const path = inCwd(word, cwd);
    const read: MappedCall[] = [
      { executor: 'fs_read', args: { path } },
      { executor: 'fs_glob', args: { pattern: '**/*', path } },
    ];
    return writes
      ? [...read, { executor: 'fs_write', args: { path, content: contentOf(toolInput) } }]
      : read;
  });
  const run = commandLines(toolInput).map((command): MappedCall => ({
    executor: 'shell_exec',
    args: { command, cwd },
  }));
  return [...opened, ...run];
}

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
  const mapped = tool.map(parsed.data, cwd);
  if (typeof mapped === 'string') {
    return {
      kind: 'malformed',
      reason: `${toolName} input is not what ${toolName} takes: ${mapped}`,
    };
  }
  return { kind: 'calls', calls: Array.isArray(mapped) ? mapped : [mapped] };
}
