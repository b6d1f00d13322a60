// A scripted LlmClient for planner tests that need no wire format: it records every
// request and answers from the script; a call with nothing scripted is recorded as
// unexpected and fails (the planner reports it as a provider fault).
import type {
  ChatRequest,
  ChatResponse,
  LlmClient,
  ToolCallRequest,
} from '../../runtime/llm/client.ts';

export type ModelStep =
  ChatResponse | Error | ((request: ChatRequest) => ChatResponse | Promise<ChatResponse>);

export interface ScriptedModel extends LlmClient {
  readonly requests: ChatRequest[];
  readonly unexpected: ChatRequest[];
  script(...steps: ModelStep[]): void;
  pending(): number;
}

let counter = 0;

/** A response proposing these tool calls (ids generated). */
export function toolCalls(...calls: { name: string; args: unknown }[]): ChatResponse {
  return {
    text: '',
    toolCalls: calls.map(({ name, args }): ToolCallRequest => ({
      id: `scripted_${String((counter += 1))}`,
      name,
      argumentsText: typeof args === 'string' ? args : JSON.stringify(args),
    })),
  };
}

/** A plain text answer. */
export function textAnswer(text: string): ChatResponse {
  return { text, toolCalls: [] };
}

/** A scripted model; `provider` only changes how the chat service presents itself. */
export function createScriptedModel(provider: LlmClient['provider'] = 'openai'): ScriptedModel {
  const queue: ModelStep[] = [];
  const requests: ChatRequest[] = [];
  const unexpected: ChatRequest[] = [];
  return {
    provider,
    model: 'scripted',
    requests,
    unexpected,
    script: (...steps) => queue.push(...steps),
    pending: () => queue.length,
    async chat(request) {
      // Copy: the planner keeps appending to the same array.
      const recorded = { ...request, messages: [...request.messages] };
      requests.push(recorded);
      const step = queue.shift();
      if (step === undefined) {
        unexpected.push(recorded);
        throw new Error('scripted model: unexpected call');
      }
      if (step instanceof Error) throw step;
      return typeof step === 'function' ? step(recorded) : step;
    },
  };
}
