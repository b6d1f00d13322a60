// A local server speaking Ollama's /api/chat wire format (non-streamed), scripted per test.
// Point the real `ollama` SDK (or OLLAMA_HOST) at `url`.
import { startScriptedServer, type Renderer, type ScriptedServer } from './scripted-http.ts';

export {
  reply,
  type ScriptedReply,
  type ScriptedServer,
  type RecordedRequest,
} from './scripted-http.ts';

const render: Renderer = (scripted, request) => {
  if (scripted.kind === 'error')
    return {
      status: scripted.status,
      body: { error: scripted.message ?? `scripted ${String(scripted.status)}` },
    };
  const body = request.body as { model?: string } | null;
  const toolCalls = (scripted.toolCalls ?? []).map((call) => ({
    // Ollama sends arguments as an object; a string stays a string so tests can send junk.
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    status: 200,
    body: {
      model: body?.model ?? 'scripted',
      created_at: new Date().toISOString(),
      message: {
        role: 'assistant',
        content: scripted.text ?? '',
        ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      },
      done: true,
      done_reason: 'stop',
      total_duration: 1,
    },
  };
};

/** Starts the server; it also answers GET /api/tags (the provider probe). */
export function startOllamaServer(): Promise<ScriptedServer> {
  return startScriptedServer(
    [
      { method: 'POST', path: '/api/chat', chat: true },
      {
        method: 'GET',
        path: '/api/tags',
        chat: false,
        fixed: { models: [{ name: 'scripted:latest' }] },
      },
    ],
    render,
  );
}
