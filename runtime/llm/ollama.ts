// LlmClient over the official `ollama` SDK (/api/chat, tools, no streaming). Ollama's tool
// calls carry no id and give arguments as an object: ids are generated here and the
// arguments serialised, so the planner sees one shape whatever the provider.
import { randomUUID } from 'node:crypto';
import { Ollama, type Message } from 'ollama';
import { NetworkError, ProviderError } from '../errors.ts';
import type { ChatMessage, ChatRequest, ChatResponse, LlmClient } from './client.ts';
import { requestSignal } from './request-signal.ts';
import { retryAfterMs } from './retry.ts';

export interface OllamaClientOptions {
  readonly host: string;
  readonly model: string;
  readonly timeoutMs: number;
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // History may hold arguments the model wrote badly; replay them as a string field.
  }
  return { _raw: text };
}

function toWire(message: ChatMessage): Message {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'tool':
      return { role: 'tool', content: message.content, tool_name: message.name };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.toolCalls && message.toolCalls.length > 0
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                function: { name: call.name, arguments: parseArguments(call.argumentsText) },
              })),
            }
          : {}),
      };
  }
}

function statusOf(error: unknown): number | undefined {
  if (
    error !== null &&
    typeof error === 'object' &&
    'status_code' in error &&
    typeof error.status_code === 'number'
  ) {
    return error.status_code;
  }
  return undefined;
}

/** An LlmClient speaking to an Ollama server's /api/chat. */
export function createOllamaClient(options: OllamaClientOptions): LlmClient {
  return {
    provider: 'ollama',
    model: options.model,
    async chat(request: ChatRequest): Promise<ChatResponse> {
      const limit = requestSignal(request.signal, request.timeoutMs ?? options.timeoutMs);
      // The SDK takes no signal for non-streamed calls, and its errors carry no headers: a
      // fetch wrapper carries our signal and keeps the answer's headers (Retry-After).
      let answered: Headers | undefined;
      const sdk = new Ollama({
        host: options.host,
        fetch: async (input, init) => {
          const response = await fetch(input, { ...init, signal: limit.signal });
          answered = response.headers;
          return response;
        },
      });
      try {
        const response = await sdk.chat({
          model: options.model,
          stream: false,
          messages: request.messages.map(toWire),
          ...(request.tools && request.tools.length > 0
            ? {
                tools: request.tools.map((tool) => ({
                  type: 'function',
                  function: {
                    name: tool.name,
                    description: tool.description,
                    parameters: tool.parameters,
                  },
                })),
              }
            : {}),
          ...(request.json ? { format: 'json' } : {}),
        });
        if (typeof response.message?.content !== 'string') {
          throw new ProviderError('Ollama answered without a message', undefined);
        }
        return {
          text: response.message.content,
          toolCalls: (response.message.tool_calls ?? []).map((call) => ({
            id: `call_${randomUUID()}`,
            name: call.function.name,
            argumentsText: JSON.stringify(call.function.arguments),
          })),
        };
      } catch (error) {
        if (error instanceof ProviderError) throw error;
        const status = statusOf(error);
        if (status !== undefined) {
          throw limit.settle(
            new ProviderError(
              `Ollama answered ${String(status)}: ${(error as Error).message}`,
              status,
              { cause: error, retryAfterMs: retryAfterMs(answered) },
            ),
          );
        }
        if (limit.signal.aborted) throw limit.settle(error);
        throw new NetworkError(
          `Ollama at ${options.host} unreachable: ${(error as Error).message}`,
          { cause: error },
        );
      }
    },
  };
}
