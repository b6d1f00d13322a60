// One auth.test before the Slack channel starts (and in `custode doctor`): a rejected token or
// an unreachable Slack is said at once, in words, instead of a client retrying for half an hour.
import { webApi } from '@slack/bolt';

export type SlackTokenCheck =
  | {
      readonly kind: 'ok';
      readonly team: string;
      readonly botUserId: string;
      readonly botId: string;
    }
  | { readonly kind: 'rejected'; readonly error: string }
  | { readonly kind: 'unreachable'; readonly message: string };

const CHECK_TIMEOUT_MS = 10_000;

/** Ask Slack who this bot token belongs to: no retries, ten seconds at most. */
export async function verifySlackToken(token: string, apiUrl?: string): Promise<SlackTokenCheck> {
  const client = new webApi.WebClient(token, {
    retryConfig: { retries: 0 },
    timeout: CHECK_TIMEOUT_MS,
    logLevel: webApi.LogLevel.ERROR,
    logger: {
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
      setLevel: () => undefined,
      getLevel: () => webApi.LogLevel.ERROR,
      setName: () => undefined,
    },
    ...(apiUrl === undefined ? {} : { slackApiUrl: apiUrl }),
  });
  try {
    const answer = await client.auth.test();
    return {
      kind: 'ok',
      team: answer.team ?? answer.team_id ?? '?',
      botUserId: answer.user_id ?? '',
      botId: answer.bot_id ?? '',
    };
  } catch (error) {
    const failure = error as { code?: string; data?: { error?: string }; message?: string };
    if (failure.code === webApi.ErrorCode.PlatformError)
      return { kind: 'rejected', error: failure.data?.error ?? 'unknown error' };
    return { kind: 'unreachable', message: failure.message ?? String(error) };
  }
}

/** The check as one line for a person: what happened and what to do. */
export function describeSlackCheck(check: SlackTokenCheck, apiUrl?: string): string {
  switch (check.kind) {
    case 'ok':
      return `Slack accepted SLACK_BOT_TOKEN (workspace ${check.team}, bot user ${check.botUserId})`;
    case 'rejected':
      return `Slack rejected SLACK_BOT_TOKEN: ${check.error}. Fix: copy the Bot User OAuth Token (xoxb-...) from the app's Install App page (reinstall the app if it was revoked).`;
    case 'unreachable':
      return `cannot reach Slack${apiUrl === undefined ? '' : ` at ${apiUrl}`}: ${check.message}. Fix: check the network (and channels.slack.api_url, if set).`;
  }
}
