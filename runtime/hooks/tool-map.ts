// Another agent's tool call (Claude Code's and Codex's tool names and inputs) as the Custode
// calls that do the same thing, so one pipeline judges both: one call for most tools, one per
// file for a Codex patch. A tool Custode has no executor for maps to nothing: the hook gives no
// decision for it.
import { isAbsolute } from 'node:path';
import * as z from 'zod';
import { commandLine } from '../shell/command-line.ts';
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
/**
 * The last word of an input key that says its value is a command line the tool runs as the user
 * (desktop-commander's `command`, a shell server's `cmd`, `shell_script`, `commands`); a key
 * ending in `command_line` counts too, `scriptId` does not.
 */
const COMMAND_WORD = /^(?:commands?|cmds?|scripts?)$/i;

/** A key whose value is a command line (see `COMMAND_WORD`). */
function commandKey(key: string): boolean {
  const words = keyWords(key);
  const last = words.at(-1) ?? '';
  return COMMAND_WORD.test(last) || (/^line$/i.test(last) && /^command$/i.test(words.at(-2) ?? ''));
}

/** A word of an input key that says its text holds the call's input as JSON (a proxy's). */
const JSON_INPUT_WORD = /^(?:arguments|args|input|params|parameters|payload)$/i;

/** The words of an input key: split at `_`, `-`, `.`, blanks and lower-to-upper case changes. */
function keyWords(key: string): string[] {
  return key.split(/[_\-.\s]+|(?<=[a-z0-9])(?=[A-Z])/).filter((word) => word !== '');
}

/** A text that is one whole path from `/` or the home (no blank), whatever its key. */
const WHOLE_PATH = /^(?:\/|~\/)\S+$/;

/** The path a `file:` URI names (any case, `file://localhost/…`, escapes decoded), else null. */
function fileUriPath(text: string): string | null {
  if (!/^file:/i.test(text)) return null;
  try {
    return decodeURIComponent(new URL(text).pathname);
  } catch {
    return text.replace(/^file:\/*/i, '/');
  }
}

/** The value a text holds as JSON (a proxy's `arguments`); undefined when it holds none. */
function jsonIn(text: string): unknown {
  if (!/^\s*[[{]/.test(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** What a tool's input names, key by key at any depth. */
interface Named {
  /** Paths under path keys, and `file:` URIs under any key. */
  readonly keyed: string[];
  /** Whole paths from `/` or `~/` under other keys (`location`, `to`, a list of arguments). */
  readonly whole: string[];
  /** Command lines under command keys: each text, and a list of words as the argv it is. */
  readonly lines: string[];
}

/** Adds what one text under `key` names: JSON text is walked as the input it holds. */
function namedInText(text: string, key: string, found: Named): void {
  const uri = fileUriPath(text);
  if (uri !== null) {
    found.keyed.push(uri);
    return;
  }
  const held = keyWords(key).some((word) => JSON_INPUT_WORD.test(word)) ? jsonIn(text) : undefined;
  if (held !== undefined) {
    namedIn(held, key, found);
    return;
  }
  if (text.trim() === '') return;
  if (commandKey(key)) found.lines.push(text);
  else if (keyWords(key).some((word) => PATH_WORD.test(word))) {
    if (!text.includes('\n')) found.keyed.push(text);
  } else if (WHOLE_PATH.test(text)) found.whole.push(text);
}

/** What a tool's input holds under its keys, at any depth (see `Named`). */
function namedIn(
  input: unknown,
  key = '',
  found: Named = { keyed: [], whole: [], lines: [] },
): Named {
  if (typeof input === 'string') namedInText(input, key, found);
  else if (Array.isArray(input)) {
    const command = commandKey(key);
    const argv = input.filter((item): item is string => typeof item === 'string');
    // A list under a command key is an argv (judged whole) or a list of lines: an item with a
    // blank is judged as a line of its own, a one-word item only as a word of the argv.
    if (command && argv.length > 0) found.lines.push(commandLine(argv));
    for (const item of input) {
      if (!(command && typeof item === 'string' && !/\s/.test(item.trim()))) {
        namedIn(item, key, found);
      }
    }
  } else if (input !== null && typeof input === 'object') {
    for (const [name, value] of Object.entries(input)) namedIn(value, name, found);
  }
  return found;
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
  const words = toolWords(toolName);
  return words.some((w) => READ_VERBS.test(w)) && !words.some((w) => WRITE_VERBS.test(w));
}

/** True when a tool's own name holds a writing verb (`write_file`, `copy`, `move_file`). */
function namesWrite(toolName: string): boolean {
  return toolWords(toolName).some((w) => WRITE_VERBS.test(w));
}

/** The words of a tool's own name (an MCP tool's after the last `__`). */
function toolWords(toolName: string): string[] {
  const own = toolName.split('__').at(-1) ?? toolName;
  return own.split(/[_\-.\s]+|(?<=[a-z])(?=[A-Z])/).filter((word) => word !== '');
}

/** The text a writing tool is given to write, for the write's own checks (a token in it). */
function contentOf(input: unknown): string {
  if (input === null || typeof input !== 'object') return '';
  const { content, text, data } = input as Record<string, unknown>;
  const given = [content, text, data].find((value) => typeof value === 'string');
  return typeof given === 'string' ? given : JSON.stringify(input);
}

/**
 * What a tool Custode has no executor for (an MCP server's, an older Claude Code tool) opens or
 * runs, as Custode calls. Each path it is given under a path key (or as a `file:` URI) is read as
 * a file, walked for the names below it when it is a directory and, unless its name says it only
 * reads, judged as a write of that file too (its input does not say which of its paths it writes,
 * moves or removes). A whole path under another key (`location`, `to`, a list of arguments) is
 * read, and written when the tool's name says it writes. A command line it is given is judged as
 * the shell line it is, in the agent's working directory. Its other text is no path (a prompt that
 * mentions one opens nothing).
 */
export function foreignToolCalls(toolName: string, toolInput: unknown, cwd: string): MappedCall[] {
  const { keyed, whole, lines } = namedIn(toolInput);
  const content = contentOf(toolInput);
  const opened = (word: string, walk: boolean, write: boolean): MappedCall[] => {
    const path = inCwd(word, cwd);
    return [
      { executor: 'fs_read', args: { path } },
      ...(walk ? [{ executor: 'fs_glob', args: { pattern: '**/*', path } }] : []),
      ...(write ? [{ executor: 'fs_write', args: { path, content } }] : []),
    ];
  };
  return [
    ...keyed.flatMap((word) => opened(word, true, !readsOnly(toolName))),
    ...whole.flatMap((word) => opened(word, false, namesWrite(toolName))),
    ...lines.map((command): MappedCall => ({ executor: 'shell_exec', args: { command, cwd } })),
  ];
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
