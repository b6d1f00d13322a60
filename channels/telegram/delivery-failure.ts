// How a failed Bot API call reads for the outbox. Telegram answers 429 with retry_after
// (auto-retry already waited some of those out), 5xx when it is having trouble, and 4xx when
// the request itself is wrong or the chat is gone; grammY's HttpError means no answer at all.
import { GrammyError, HttpError } from 'grammy';
import type { DeliveryFailure } from '../../runtime/outbox/outbox.ts';

/** Chats that can no longer be written to: blocked, left, deleted, or a token Telegram refuses. */
function chatGone(error: GrammyError): boolean {
  return (
    error.error_code === 401 ||
    error.error_code === 403 ||
    /chat not found|bot was kicked|user is deactivated/i.test(error.description)
  );
}

/** The outbox's reading of a grammY error. */
export function telegramDeliveryFailure(error: unknown): DeliveryFailure {
  if (error instanceof HttpError) return { kind: 'retry', why: 'the Bot API could not be reached' };
  if (!(error instanceof GrammyError)) return { kind: 'retry', why: String(error) };
  const why = `${String(error.error_code)} ${error.description}`;
  if (error.error_code === 429) {
    const seconds = error.parameters.retry_after;
    return { kind: 'retry', why, ...(seconds === undefined ? {} : { afterMs: seconds * 1000 }) };
  }
  if (error.error_code >= 500) return { kind: 'retry', why };
  return { kind: 'refused', why, chatReachable: !chatGone(error) };
}
