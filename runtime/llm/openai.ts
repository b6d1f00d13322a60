// LlmClient over the official `openai` SDK (chat completions with tools). The SDK's own
// retries are off: retry.ts owns the policy, so a fault is retried once, by us.
import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { NetworkError, ProviderError } from '../errors.ts';
import type { ChatMessage, ChatRequest, ChatResponse, LlmClient } from './client.ts';
import { abortError, requestSignal } from './request-signal.ts';
import { retryAfterMs } from './retry.ts';

export interface OpenAiClientOptions {
  readonly apiKey: string;
  readonly baseUrl?: string | undefined;
  readonly model: string;
  readonly timeoutMs: number;
}

function toWire(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant':
      if (!message.toolCalls || message.toolCalls.length === 0)
        return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        content: message.content === '' ? null : message.content,
        tool_calls: message.toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.argumentsText },
        })),
      };
  }
}

function mapError(error: unknown, signal: AbortSignal | undefined): unknown {
  if (error instanceof APIUserAbortError && signal?.aborted) return abortError(signal);
  if (error instanceof APIConnectionError)
    return new NetworkError(`OpenAI API unreachable: ${error.message}`, { cause: error });
  if (error instanceof APIError) {
    return new ProviderError(
      `OpenAI API answered ${String(error.status)}: ${error.message}`,
      error.status,
      { cause: error, retryAfterMs: retryAfterMs(error.headers) },
    );
  }
  return error;
}

/** An LlmClient speaking to an OpenAI-compatible chat completions endpoint. */
export function createOpenAiClient(options: OpenAiClientOptions): LlmClient {
  const sdk = new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseUrl ?? null,
    maxRetries: 0,
  });
  return {
    provider: 'openai',
    model: options.model,
    async chat(request: ChatRequest): Promise<ChatResponse> {
      const limit = requestSignal(request.signal, request.timeoutMs ?? options.timeoutMs);
      try {
        const completion = await sdk.chat.completions.create(
          {
            model: options.model,
            messages: request.messages.map(toWire),
            ...(request.tools && request.tools.length > 0
              ? {
                  tools: request.tools.map((tool) => ({
                    type: 'function' as const,
                    function: {
                      name: tool.name,
                      description: tool.description,
                      parameters: tool.parameters,
                    },
                  })),
                }
              : {}),
            ...(request.json ? { response_format: { type: 'json_object' as const } } : {}),
          },
          { signal: limit.signal, timeout: request.timeoutMs ?? options.timeoutMs },
        );
        const message = completion.choices[0]?.message;
        if (!message) throw new ProviderError('OpenAI API answered without a choice', undefined);
        return {
          text: message.content ?? '',
          toolCalls: (message.tool_calls ?? []).flatMap((call) =>
            call.type === 'function'
              ? [{ id: call.id, name: call.function.name, argumentsText: call.function.arguments }]
              : [],
          ),
        };
      } catch (error) {
        throw limit.settle(mapError(error, request.signal));
      }
    },
  };
}
