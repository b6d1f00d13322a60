// The model-free provider: slash commands become tool calls, and a tool's result is
// answered back trimmed. With it every safety stage, approval and executor works with
// no key and no network.
import { isAbsolute, resolve } from 'node:path';
import type {
  ChatMessage,
  ChatRequest,
  ChatResponse,
  LlmClient,
  ToolCallRequest,
} from './client.ts';

const maxAnswerChars = 2_000;

export const offlineHelp = [
  'Offline mode (no model connected). Commands:',
  '  /run <command>        run a shell command (shell_exec)',
  '  /read <path>          read a file (fs_read)',
  '  /ls [path]            list a directory (fs_list)',
  '  /write <path> <text>  write a file (fs_write)',
  '  /fetch <url>          fetch a web page (web_fetch)',
  'To talk in plain language, connect a model: set OPENAI_API_KEY, or run Ollama (OLLAMA_HOST),',
  'or choose one with llm.provider in the config file.',
].join('\n');

type Parsed = { tool: string; args: Record<string, unknown> } | { text: string };

/** A path word from the person, made absolute against the workdir (~ and / stay as typed). */
function pathIn(workdir: string | undefined, path: string): string {
  if (workdir === undefined || path.startsWith('~') || isAbsolute(path)) return path;
  return resolve(workdir, path);
}

function parseCommand(text: string, workdir?: string): Parsed {
  const match = /^\/(\w+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  const verb = match?.[1];
  const rest = (match?.[2] ?? '').trim();
  const usage = (line: string): Parsed => ({ text: `Usage: ${line}` });
  switch (verb) {
    case 'run':
      return rest === ''
        ? usage('/run <command>')
        : {
            tool: 'shell_exec',
            args: workdir === undefined ? { command: rest } : { command: rest, cwd: workdir },
          };
    case 'read':
      return rest === ''
        ? usage('/read <path>')
        : { tool: 'fs_read', args: { path: pathIn(workdir, rest) } };
    case 'ls':
      return { tool: 'fs_list', args: { path: pathIn(workdir, rest === '' ? '.' : rest) } };
    case 'write': {
      const split = /^(\S+)\s+([\s\S]*)$/.exec(rest);
      if (!split?.[1] || split[2] === undefined) return usage('/write <path> <text>');
      return { tool: 'fs_write', args: { path: pathIn(workdir, split[1]), content: split[2] } };
    }
    case 'fetch':
      return rest === '' ? usage('/fetch <url>') : { tool: 'web_fetch', args: { url: rest } };
    case 'help':
      return { text: offlineHelp };
    default:
      return {
        text: 'No model is connected, so I only understand commands such as /run, /read, /ls, /write and /fetch (/help lists them). To talk in plain language, set OPENAI_API_KEY, run Ollama (OLLAMA_HOST), or set llm.provider in the config.',
      };
  }
}

function trim(text: string): string {
  const clean = text.trim();
  return clean.length <= maxAnswerChars
    ? clean
    : `${clean.slice(0, maxAnswerChars)}\n… (${clean.length - maxAnswerChars} more characters)`;
}

function shellText(record: Record<string, unknown>): string {
  const stdout = typeof record.stdout === 'string' ? record.stdout : '';
  const stderr =
    typeof record.stderr === 'string' && record.stderr !== '' ? `\n${record.stderr}` : '';
  const exit =
    typeof record.exit_code === 'number' && record.exit_code !== 0
      ? `\n(exit code ${String(record.exit_code)})`
      : '';
  return `${stdout}${stderr}${exit}` || '(no output)';
}

/** A tool result as text: its output or content, a list one per line, else `key: value` lines. */
function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return JSON.stringify(value, null, 2);
  const record = value as Record<string, unknown>;
  if (typeof record.stdout === 'string') return shellText(record);
  for (const key of ['content', 'text'] as const) {
    if (typeof record[key] === 'string') return record[key];
  }
  const list = Object.values(record).find(
    (field) => Array.isArray(field) && field.every((item) => typeof item === 'string'),
  );
  if (Array.isArray(list)) return list.length === 0 ? '(empty)' : list.join('\n');
  return Object.entries(record)
    .map(([key, field]) => `${key}: ${typeof field === 'string' ? field : JSON.stringify(field)}`)
    .join('\n');
}

/** Turns a tool observation (the planner's JSON framing) into the answer's text. */
function summarise(observation: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(observation);
  } catch {
    return trim(observation);
  }
  if (parsed === null || typeof parsed !== 'object') return trim(String(parsed));
  const record = parsed as Record<string, unknown>;
  if (record.status === 'ok') return trim(describe(record.result)) || 'Done.';
  const reason = typeof record.reason === 'string' ? record.reason : describe(record);
  return `Not done: ${trim(reason)}`;
}

function lastTurn(messages: readonly ChatMessage[]): ChatMessage | undefined {
  return messages.at(-1);
}

/**
 * The offline LlmClient. Stateless: it reads only the last message of the request.
 * `workdir`: relative paths and commands start there (the terminal chat's start dir).
 */
export function createOfflineClient(workdir?: string): LlmClient {
  let counter = 0;
  return {
    provider: 'offline',
    model: 'offline',
    chat(request: ChatRequest): Promise<ChatResponse> {
      const last = lastTurn(request.messages);
      if (last?.role === 'tool')
        return Promise.resolve({ text: summarise(last.content), toolCalls: [] });
      const parsed = parseCommand(last?.role === 'user' ? last.content : '', workdir);
      if ('text' in parsed) return Promise.resolve({ text: parsed.text, toolCalls: [] });
      counter += 1;
      const call: ToolCallRequest = {
        id: `offline_${String(counter)}`,
        name: parsed.tool,
        argumentsText: JSON.stringify(parsed.args),
      };
      return Promise.resolve({ text: '', toolCalls: [call] });
    },
  };
}
