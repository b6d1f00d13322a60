// Retries for model calls: provider faults (no answer, timeouts, 429, 5xx) are retried with
// bounded exponential backoff; a 4xx other than 429 is the request's fault and is not;
// a cancelled turn stops retrying at once.
import pRetry, { AbortError } from 'p-retry';
import { NetworkError, ProviderError } from '../errors.ts';
import type { LlmClient } from './client.ts';

export interface RetryOptions {
  readonly maxRetries: number;
  /** First backoff; doubles each attempt up to maxTimeoutMs. */
  readonly minTimeoutMs?: number;
  readonly maxTimeoutMs?: number;
}

/** Whether a failed model call is worth another attempt. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  if (error instanceof ProviderError)
    return error.status === undefined || error.status === 429 || error.status >= 500;
  return false;
}

/** The same client, with each chat() retried per the policy above. */
export function withRetry(client: LlmClient, options: RetryOptions): LlmClient {
  return {
    provider: client.provider,
    model: client.model,
    chat(request) {
      return pRetry(
        async () => {
          try {
            return await client.chat(request);
          } catch (error) {
            // p-retry gives up at once on its AbortError; the original error is rethrown.
            if (request.signal?.aborted || !isRetryable(error))
              throw new AbortError(error as Error);
            throw error;
          }
        },
        {
          retries: options.maxRetries,
          minTimeout: options.minTimeoutMs ?? 500,
          maxTimeout: options.maxTimeoutMs ?? 8_000,
          randomize: true,
          ...(request.signal ? { signal: request.signal } : {}),
        },
      );
    },
  };
}
