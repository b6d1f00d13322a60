// Retries for model calls: provider faults (no answer, timeouts, 429, 5xx) are retried with
// bounded exponential backoff, never sooner than the provider's Retry-After (waited up to a
// cap); a 4xx other than 429 is the request's fault and is not; a cancelled turn stops
// retrying at once.
import { setTimeout as sleep } from 'node:timers/promises';
import pRetry, { AbortError } from 'p-retry';
import { NetworkError, ProviderError } from '../errors.ts';
import type { LlmClient } from './client.ts';

export interface RetryOptions {
  readonly maxRetries: number;
  /** First backoff; doubles each attempt up to maxTimeoutMs. */
  readonly minTimeoutMs?: number;
  readonly maxTimeoutMs?: number;
  /** The longest Retry-After honoured (llm.timeout_ms): a longer one is waited this long. */
  readonly maxRetryAfterMs?: number;
}

/**
 * How long the provider asked to wait, from `retry-after-ms` (OpenAI) or `retry-after`
 * (seconds or an HTTP date); undefined when it did not say.
 */
export function retryAfterMs(
  headers: { get(name: string): string | null } | undefined,
  now = Date.now(),
): number | undefined {
  const ms = Number(headers?.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
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
          // Before the backoff's own wait: together never sooner than the provider asked.
          onFailedAttempt: async (error) => {
            const asked = error instanceof ProviderError ? error.retryAfterMs : undefined;
            if (asked === undefined || error.retriesLeft === 0) return;
            const wait = Math.min(asked, options.maxRetryAfterMs ?? asked);
            await sleep(wait, undefined, request.signal ? { signal: request.signal } : {});
          },
          ...(request.signal ? { signal: request.signal } : {}),
        },
      );
    },
  };
}
