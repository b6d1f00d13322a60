// Shared pieces for the judge tests: a panel built the production way (judgeClientFor, real
// SDK clients) against the scripted OpenAI/Ollama servers, a logger whose lines the test can
// read, and a reader for the payload the judge model actually received.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { expect } from 'vitest';
import { parseConfig, type Config, type ConfigInput } from '../../runtime/config.ts';
import type { Logger } from '../../runtime/log/logger.ts';
import type { JudgeInput } from '../../runtime/vaglio/judge.ts';
import { judgeClientFor } from '../../runtime/vaglio/judge-clients.ts';
import { createLlmPanel, type LlmPanel } from '../../runtime/vaglio/panel.ts';
import type { RecordedRequest, ScriptedReply, ScriptedServer } from './scripted-http.ts';

/** A judge model's answer as text. */
export function verdictJson(
  score: number,
  confidence: number,
  reasoning = 'fits the task',
): string {
  return JSON.stringify({ score, confidence, reasoning });
}

/** A scripted reply carrying a verdict. */
export function verdictReply(score: number, confidence: number, reasoning?: string): ScriptedReply {
  return { kind: 'message', text: verdictJson(score, confidence, reasoning) };
}

type JudgeEntry = NonNullable<NonNullable<ConfigInput['vaglio']>['judges']>[number];

/** One judge on the OpenAI wire server; the model name is the judge name (servers route on it). */
export function openAiJudge(
  server: ScriptedServer,
  name: string,
  extra: Partial<JudgeEntry> = {},
): JudgeEntry {
  return { name, provider: 'openai', model: name, base_url: `${server.url}/v1`, ...extra };
}

/** One judge on the Ollama wire server. */
export function ollamaJudge(
  server: ScriptedServer,
  name: string,
  extra: Partial<JudgeEntry> = {},
): JudgeEntry {
  return { name, provider: 'ollama', model: name, base_url: server.url, ...extra };
}

/** An env with an API key for the OpenAI SDK (the scripted server ignores it). */
export function judgeEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, OPENAI_API_KEY: 'sk-test', ...extra };
}

/** A pino logger whose JSON lines land in `lines`. */
export function captureLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { logger: pino({ level: 'info', base: null }, sink), lines };
}

/** A panel over these judges, built as the composition root builds it. */
export function buildPanel(
  vaglio: NonNullable<ConfigInput['vaglio']>,
  options: { env?: NodeJS.ProcessEnv; logger?: Logger } = {},
): { panel: LlmPanel; config: Config } {
  const config = parseConfig({ vaglio });
  const env = options.env ?? judgeEnv();
  const panel = createLlmPanel(config, env, judgeClientFor(config, env), {
    logger: options.logger ?? captureLogger().logger,
  });
  expect(panel).not.toBeNull();
  return { panel: panel as LlmPanel, config };
}

/** A call to judge: writing a note, as the person asked. */
export function sampleInput(overrides: Partial<JudgeInput> = {}): JudgeInput {
  return {
    intent: 'write a note saying hello to notes/today.md',
    executor: 'fs_write',
    args: { path: 'notes/today.md', content: 'hello' },
    context: { mode: 'multistep', step: 1, critical: true },
    availableTools: [
      { name: 'fs_write', description: 'Write a file.' },
      { name: 'fs_read', description: 'Read a file.' },
    ],
    ...overrides,
  };
}

/** The judge's conversation as the model server received it (OpenAI or Ollama body). */
export function judgeMessages(request: RecordedRequest): { role: string; content: string }[] {
  const body = request.body as { messages?: { role: string; content: string }[] };
  expect(Array.isArray(body.messages)).toBe(true);
  return body.messages ?? [];
}

/** The JSON payload in the judge's user message. */
export function judgePayload(request: RecordedRequest): Record<string, unknown> {
  const user = judgeMessages(request).find((message) => message.role === 'user');
  expect(user).toBeDefined();
  const text = user?.content ?? '';
  return JSON.parse(text.slice(text.indexOf('{'))) as Record<string, unknown>;
}

/** Replies routed by the judge's model name, so parallel judges get their own answers. */
export function byModel(
  replies: Readonly<Record<string, ScriptedReply>>,
): (request: RecordedRequest) => ScriptedReply {
  const table = new Map(Object.entries(replies));
  return (request) => {
    const model = (request.body as { model?: string }).model ?? '';
    return (
      table.get(model) ?? { kind: 'error', status: 400, message: `no reply for model ${model}` }
    );
  };
}
