// `custode doctor` asks Telegram and Slack whether the tokens work (getMe, auth.test): a
// rejected token is a problem to fix; an unreachable API is said, since the daemon would wait.
import { Api, GrammyError, HttpError } from 'grammy';
import { describeSlackCheck, verifySlackToken } from '../../channels/slack/verify-token.ts';
import type { Config } from '../config.ts';
import type { DoctorReport } from './doctor-setup.ts';

const CHECK_TIMEOUT_SECONDS = 10;

async function checkTelegram(
  token: string,
  apiRoot: string | undefined,
  report: DoctorReport,
): Promise<void> {
  const api = new Api(token, {
    timeoutSeconds: CHECK_TIMEOUT_SECONDS,
    ...(apiRoot === undefined || apiRoot === '' ? {} : { apiRoot }),
  });
  try {
    const me = await api.getMe();
    report.line(`  telegram: token accepted, the bot is @${me.username}`);
  } catch (error) {
    if (error instanceof GrammyError)
      report.problem(
        `Telegram rejected TELEGRAM_BOT_TOKEN (${String(error.error_code)}: ${error.description}). Fix: copy the token again from @BotFather (/token).`,
      );
    else
      report.line(
        `  note: cannot reach Telegram to check the token (${error instanceof HttpError ? error.message : String(error)}); the daemon retries until it can.`,
      );
  }
}

/** Check the tokens of the enabled channels that have one. */
export async function checkTokensOnline(
  config: Config,
  env: NodeJS.ProcessEnv,
  report: DoctorReport,
): Promise<void> {
  const { telegram, slack } = config.channels;
  const telegramToken = env.TELEGRAM_BOT_TOKEN;
  if (telegram.enabled && telegramToken !== undefined && telegramToken !== '')
    await checkTelegram(telegramToken, telegram.api_root ?? env.TELEGRAM_API_ROOT, report);
  const slackToken = env.SLACK_BOT_TOKEN;
  if (slack.enabled && slackToken !== undefined && slackToken !== '') {
    const check = await verifySlackToken(slackToken, slack.api_url);
    const text = describeSlackCheck(check, slack.api_url);
    if (check.kind === 'rejected') report.problem(text);
    else report.line(`  ${check.kind === 'ok' ? 'slack' : 'note'}: ${text}`);
  }
}
