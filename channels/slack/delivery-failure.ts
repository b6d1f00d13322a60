// How a failed Web API call reads for the outbox. The WebClient throws coded errors: no
// answer (request error), an HTTP error status, a rate limit, or a platform error (`ok:
// false` with an error name). Only the platform errors say the call itself will never work.
import { webApi } from '@slack/bolt';
import type { DeliveryFailure } from '../../runtime/outbox/outbox.ts';

/** Platform errors that are Slack's trouble, not the call's: worth another try. */
const TRANSIENT = new Set([
  'ratelimited',
  'service_unavailable',
  'fatal_error',
  'internal_error',
  'request_timeout',
]);
/** Platform errors about the message itself: the chat can still be told. */
const BAD_MESSAGE = new Set(['msg_too_long', 'invalid_blocks', 'no_text', 'invalid_arguments']);

/** The outbox's reading of a WebClient error. */
export function slackDeliveryFailure(error: unknown): DeliveryFailure {
  const coded = error as Partial<webApi.WebAPICallError> | null;
  switch (coded?.code) {
    case webApi.ErrorCode.RateLimitedError:
      return {
        kind: 'retry',
        why: 'rate limited',
        afterMs: (error as webApi.WebAPIRateLimitedError).retryAfter * 1000,
      };
    case webApi.ErrorCode.PlatformError: {
      const name = (error as webApi.WebAPIPlatformError).data.error;
      if (TRANSIENT.has(name)) return { kind: 'retry', why: name };
      return { kind: 'refused', why: name, chatReachable: BAD_MESSAGE.has(name) };
    }
    case webApi.ErrorCode.HTTPError:
      return {
        kind: 'retry',
        why: `HTTP ${String((error as webApi.WebAPIHTTPError).statusCode)}`,
      };
    default:
      return {
        kind: 'retry',
        why: error instanceof Error ? error.message : 'Slack could not be reached',
      };
  }
}
