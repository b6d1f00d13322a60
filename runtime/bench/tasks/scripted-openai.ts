// The model's side of the everyday-task replay: a local server speaking the OpenAI chat
// completions wire format that answers each request with the next scripted tool call, then a
// short text answer. The planner reaches it through the real `openai` SDK.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedCall {
  readonly tool: string;
  readonly args: unknown;
}

/** What the script says next: a tool call, or null for the closing text answer. */
export type NextStep = () => ScriptedCall | null;

export interface ScriptedOpenAi {
  /** The SDK's baseURL (ends in /v1). */
  readonly baseUrl: string;
  /** Sets the script for the requests that follow. */
  play(next: NextStep): void;
  close(): Promise<void>;
}

export const closingAnswer = 'Done.';

async function drain(request: IncomingMessage): Promise<void> {
  for await (const chunk of request) void chunk;
}

function completion(id: number, step: ScriptedCall | null): unknown {
  const toolCalls =
    step === null
      ? undefined
      : [
          {
            id: `call_${String(id)}`,
            type: 'function',
            function: { name: step.tool, arguments: JSON.stringify(step.args) },
          },
        ];
  return {
    id: `chatcmpl-${String(id)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: 'scripted-everyday',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: step === null ? closingAnswer : null,
          refusal: null,
          ...(toolCalls ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: toolCalls ? 'tool_calls' : 'stop',
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

/** Starts the server on a free loopback port. */
export async function startScriptedOpenAi(): Promise<ScriptedOpenAi> {
  let next: NextStep = () => null;
  let counter = 0;
  const server = createServer((request, response) => {
    void drain(request).then(() => {
      const ok = request.method === 'POST' && request.url === '/v1/chat/completions';
      counter += 1;
      response.writeHead(ok ? 200 : 404, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(ok ? completion(counter, next()) : { error: { message: 'not found' } }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${String(port)}/v1`,
    play: (script) => {
      next = script;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
