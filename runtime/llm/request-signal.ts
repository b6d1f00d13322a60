// One signal per model request: the caller's cancellation plus the request's time limit,
// so a provider can tell "the person stopped it" from "the API never answered".
import { NetworkError } from '../errors.ts';

/** The combined signal and a function that turns a thrown error into the right one. */
export function requestSignal(
  signal: AbortSignal | undefined,
  timeoutMs: number,
): { signal: AbortSignal; settle(error: unknown): unknown } {
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  return {
    signal: combined,
    settle(error: unknown): unknown {
      if (signal?.aborted) return abortError(signal);
      if (timeout.aborted)
        return new NetworkError(`the model did not answer within ${timeoutMs} ms`, {
          cause: error,
        });
      return error;
    },
  };
}

/** The error a cancelled request rejects with: the signal's reason when it is an Error. */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error
    ? reason
    : new DOMException('The operation was aborted.', 'AbortError');
}
