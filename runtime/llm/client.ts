// The model seam. The planner and the LLM judge receive an LlmClient and never import
// a provider SDK; openai.ts, ollama.ts and offline.ts implement it.

export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  /** JSON schema of the arguments, from z.toJSONSchema(executor.args). */
  readonly parameters: Record<string, unknown>;
}

export interface ToolCallRequest {
  /** Provider's id for the call (generated when the provider has none). */
  readonly id: string;
  readonly name: string;
  /** The raw argument text as the model produced it; may not be JSON. */
  readonly argumentsText: string;
}

export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string;
      readonly toolCalls?: readonly ToolCallRequest[];
    }
  | {
      readonly role: 'tool';
      readonly toolCallId: string;
      readonly name: string;
      readonly content: string;
    };

export interface ChatRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools?: readonly ToolSpec[];
  /** Ask for a JSON object answer (the judge). */
  readonly json?: boolean;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

export interface ChatResponse {
  readonly text: string;
  readonly toolCalls: readonly ToolCallRequest[];
}

export interface LlmClient {
  readonly provider: 'openai' | 'ollama' | 'offline';
  readonly model: string;
  /** Throws ProviderError (answered with an error) or NetworkError (never answered). */
  chat(request: ChatRequest): Promise<ChatResponse>;
}
