// A local server speaking the OpenAI chat completions wire format, scripted per test.
// Point the real `openai` SDK at `${url}/v1`.
import { startScriptedServer, type Renderer, type ScriptedServer } from './scripted-http.ts';

export {
  reply,
  type ScriptedReply,
  type ScriptedServer,
  type RecordedRequest,
} from './scripted-http.ts';

let counter = 0;

const render: Renderer = (scripted, request) => {
  if (scripted.kind === 'error') {
    return {
      status: scripted.status,
      body: {
        error: {
          message: scripted.message ?? `scripted ${String(scripted.status)}`,
          type: 'server_error',
          code: null,
        },
      },
    };
  }
  counter += 1;
  const toolCalls = (scripted.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${String(counter)}_${String(index)}`,
    type: 'function',
    function: {
      name: call.name,
      arguments:
        typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    },
  }));
  const body = request.body as { model?: string } | null;
  return {
    status: 200,
    body: {
      id: `chatcmpl-${String(counter)}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body?.model ?? 'scripted',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: scripted.text ?? null,
            ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
            refusal: null,
          },
          finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    },
  };
};

/** Starts the server; its `url` + '/v1' is the SDK's baseURL (or OPENAI_BASE_URL). */
export function startOpenAiServer(): Promise<ScriptedServer> {
  return startScriptedServer(
    [{ method: 'POST', path: '/v1/chat/completions', chat: true }],
    render,
  );
}
