// Slack Socket Mode with Custode's own reconnect loop. Left to itself, the socket client
// retries apps.connections.open up to a hundred times in silence, and when that call finally
// fails for good (a revoked app token, Slack unreachable) its reconnect promise rejects
// unhandled, which ends the whole daemon. Here the client never reconnects by itself: every
// lost connection and failed attempt is logged and counted in the channel health (doctor,
// /healthz), Slack's outages are retried with back-off for as long as they last, and a token
// Slack refuses stops the loop at once with an error that names the fix.
import { SocketModeReceiver, webApi, type Logger as BoltLogger } from '@slack/bolt';
import { ConfigError, NetworkError } from '../../runtime/errors.ts';
import type { ChannelHealth } from '../../runtime/health/channel-health.ts';
import type { Logger } from '../../runtime/log/logger.ts';

/** apps.connections.open errors that mean the app token will never work again as it is. */
const TOKEN_REFUSED = new Set([
  'not_authed',
  'invalid_auth',
  'token_revoked',
  'token_expired',
  'account_inactive',
  'team_disabled',
  'user_removed_from_team',
]);
const FIRST_RETRY_MS = 500;
const LONGEST_RETRY_MS = 5 * 60_000;
/** A connection that ends sooner than this after Slack's hello counts as a failure. */
const SHORT_LIVED_MS = 60_000;

export interface SocketConnectionOptions {
  readonly appToken: string;
  readonly apiUrl: string | undefined;
  readonly boltLogger: BoltLogger;
  readonly logger: Logger;
  readonly health: ChannelHealth | undefined;
}

/** Why a connection attempt failed, in words; `refused` when the token is the cause. */
function readFailure(error: unknown): { refused: boolean; why: string } {
  const coded = error as Partial<webApi.WebAPICallError> | null | undefined;
  if (coded?.code === webApi.ErrorCode.PlatformError) {
    const name = (error as webApi.WebAPIPlatformError).data.error;
    return { refused: TOKEN_REFUSED.has(name), why: name };
  }
  if (coded?.code === webApi.ErrorCode.HTTPError)
    return {
      refused: false,
      why: `HTTP ${String((error as webApi.WebAPIHTTPError).statusCode)}`,
    };
  if (error instanceof Error) return { refused: false, why: error.message };
  return { refused: false, why: 'the connection closed before Slack said hello' };
}

/** Why the first connection failed, as the error the daemon stops with (naming the fix). */
export function socketStartError(error: unknown): Error {
  const { refused, why } = readFailure(error);
  return refused
    ? new ConfigError(
        `Slack refused the app token (${why}). Fix: set SLACK_APP_TOKEN to a valid app-level token (xapp-..., with connections:write), or use channels.slack.mode: http.`,
      )
    : new NetworkError(
        `Slack Socket Mode could not connect (${why}). Fix: check the network, then start again.`,
      );
}

export interface SocketConnection {
  /** For Bolt's App: its start() makes the first connection, which fails the start if it fails. */
  readonly receiver: SocketModeReceiver;
  /** No more reconnects (call before the App stops). */
  stop(): void;
}

/** A Socket Mode receiver for Bolt whose reconnects are Custode's (see the file comment). */
export function createSocketConnection(options: SocketConnectionOptions): SocketConnection {
  const { logger, health } = options;
  const receiver = new SocketModeReceiver({
    appToken: options.appToken,
    logger: options.boltLogger,
    autoReconnectEnabled: false,
    installerOptions: {
      clientOptions: {
        // One try per attempt: a failure comes back here, to be logged and paced.
        retryConfig: { retries: 0 },
        ...(options.apiUrl === undefined ? {} : { slackApiUrl: options.apiUrl }),
      },
    },
  });
  const client = receiver.client;
  let connecting = false;
  let stopping = false;
  let failures = 0;
  let connectedAt = 0;
  let timer: NodeJS.Timeout | null = null;

  const attempt = (): void => {
    timer = null;
    if (stopping || connecting) return;
    connecting = true;
    client.start().then(
      () => {
        connecting = false;
      },
      (error: unknown) => {
        connecting = false;
        failed(error);
      },
    );
  };
  const later = (): void => {
    if (stopping || timer !== null) return;
    const wait = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1), LONGEST_RETRY_MS);
    timer = setTimeout(attempt, failures === 0 ? 0 : wait);
    timer.unref();
  };
  const failed = (error: unknown): void => {
    if (stopping) return;
    const { refused, why } = readFailure(error);
    if (refused) {
      logger.error(
        { reason: why },
        `Slack refused the app token (${why}): Socket Mode has stopped, so no message from Slack reaches Custode. Fix: a valid SLACK_APP_TOKEN (xapp-...), then restart the daemon.`,
      );
      health?.stopped('slack', 'connection', `Slack refused the app token (${why})`);
      return;
    }
    failures += 1;
    logger.warn(
      { reason: why, failures },
      'slack: could not connect to Socket Mode; trying again with back-off',
    );
    health?.failed('slack', 'connection', why);
    later();
  };

  client.on('connected', () => {
    failures = 0;
    connectedAt = Date.now();
    health?.succeeded('slack', 'connection');
  });
  client.on('disconnected', () => {
    // Before the first hello the App's start fails instead; while an attempt is under way its
    // own rejection reports the failure.
    if (stopping || connecting || connectedAt === 0) return;
    if (Date.now() - connectedAt < SHORT_LIVED_MS) {
      failed(new Error('the Socket Mode connection dropped soon after it opened'));
      return;
    }
    logger.info('slack: the Socket Mode connection closed; reconnecting');
    later();
  });
  return {
    receiver,
    stop() {
      stopping = true;
      if (timer !== null) clearTimeout(timer);
    },
  };
}
