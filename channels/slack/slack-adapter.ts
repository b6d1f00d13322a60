// The Slack channel (@slack/bolt 5): Socket Mode (app token) or HTTP mode (signing secret;
// Bolt verifies every request's signature, so a forged one never reaches the planner).
// A DM is one conversation (answered in the DM; a thread in it stays a thread); a mention in a
// channel is answered in its thread, which is its own conversation. Cards are Block Kit with
// the three buttons, whose action ids carry the approval id. Strangers pair by DM.
import { App, LogLevel, type Logger as BoltLogger } from '@slack/bolt';
import type { ChannelSink, ChatPort } from '../../runtime/approvals/press-card.ts';
import { decodeButton, pressNotice } from '../../runtime/approvals/render.ts';
import { ConfigError, NetworkError } from '../../runtime/errors.ts';
import type { Logger } from '../../runtime/log/logger.ts';
import { stateDir as defaultStateDir } from '../../runtime/paths.ts';
import type { RemoteAdapterOptions } from '../adapter.ts';
import { createPairingStore, pairingFile } from '../pairing/pairing-store.ts';
import { strangerReply } from '../pairing/stranger-reply.ts';
import { createSlackSink, slackChatId } from './slack-sink.ts';
import { slackDeliveryFailure } from './delivery-failure.ts';
import { startChannelOutbox } from '../../runtime/outbox/channel-outbox.ts';
import type { Outbox } from '../../runtime/outbox/outbox.ts';
import { SLACK_TEXT_LIMIT, splitMessage } from '../split-message.ts';
import { describeSlackCheck, verifySlackToken } from './verify-token.ts';
import {
  createSocketConnection,
  socketStartError,
  type SocketConnection,
} from './socket-connection.ts';

const CHANNEL_REFUSAL =
  'Sorry, this assistant only talks to the people it was set up for. If it is yours, send me a direct message for a pairing code.';

export type SlackAdapterOptions = RemoteAdapterOptions;

export interface SlackAdapter {
  readonly name: 'slack';
  start(service: ChatPort): Promise<void>;
  stop(): Promise<void>;
}

/** Bolt's logger interface over pino (Bolt would print to the console otherwise). */
function boltLogger(logger: Logger): BoltLogger {
  let level = LogLevel.INFO;
  const line = (parts: unknown[]): string =>
    parts.map((p) => (p instanceof Error ? p.message : String(p))).join(' ');
  return {
    debug: (...parts: unknown[]) => logger.debug({ source: 'bolt' }, line(parts)),
    info: (...parts: unknown[]) => logger.info({ source: 'bolt' }, line(parts)),
    warn: (...parts: unknown[]) => logger.warn({ source: 'bolt' }, line(parts)),
    error: (...parts: unknown[]) => logger.error({ source: 'bolt' }, line(parts)),
    setLevel: (next) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}

function required(env: NodeJS.ProcessEnv, name: string, why: string): string {
  const value = env[name];
  if (value === undefined || value === '') {
    throw new ConfigError(
      `${name} is not set (${why}). Fix: export ${name}=..., or set channels.slack.enabled: false.`,
    );
  }
  return value;
}

/** The bot's identity from auth.test, or a clear failure: a bad token or no Slack at all. */
async function whoAmI(
  token: string,
  apiUrl: string | undefined,
): Promise<{ botUserId: string; botId: string }> {
  const check = await verifySlackToken(token, apiUrl);
  if (check.kind === 'rejected') throw new ConfigError(describeSlackCheck(check));
  if (check.kind === 'unreachable') throw new NetworkError(describeSlackCheck(check, apiUrl));
  return check;
}

function createApp(
  options: SlackAdapterOptions,
  bot: { botUserId: string; botId: string },
): { app: App; socket: SocketConnection | null } {
  const { config, env, logger } = options;
  const settings = config.channels.slack;
  const token = required(env, 'SLACK_BOT_TOKEN', 'the bot token, xoxb-...');
  const bolt = boltLogger(logger);
  const common = {
    token,
    // Checked once by whoAmI: Bolt's own check would retry an unreachable Slack for half an hour.
    tokenVerificationEnabled: false,
    botUserId: bot.botUserId,
    botId: bot.botId,
    logger: bolt,
    clientOptions: {
      // A 429 makes the client wait Retry-After and retry; after a few tries (a few seconds,
      // not the default half hour, which would hold the chat) the outbox keeps the answer
      // and retries it on its own, across restarts.
      rejectRateLimitedCalls: false,
      retryConfig: { retries: 2, factor: 2, minTimeout: 1_000, maxTimeout: 5_000 },
      ...(settings.api_url === undefined ? {} : { slackApiUrl: settings.api_url }),
    },
  };
  if (settings.mode === 'socket') {
    const socket = createSocketConnection({
      appToken: required(env, 'SLACK_APP_TOKEN', 'Socket Mode needs the app-level token, xapp-...'),
      apiUrl: settings.api_url,
      boltLogger: bolt,
      logger,
      health: options.health,
    });
    return { app: new App({ ...common, receiver: socket.receiver }), socket };
  }
  const app = new App({
    ...common,
    signingSecret: required(
      env,
      'SLACK_SIGNING_SECRET',
      'HTTP mode verifies every request with it',
    ),
    port: settings.port,
  });
  return { app, socket: null };
}

/** The text without the bot's own mention (`<@U123>` or `<@U123|name>`); other people's stay. */
export function withoutMention(text: string, botUserId: string): string {
  return text
    .split(new RegExp(`<@${botUserId}(?:\\|[^>]*)?>`, 'g'))
    .join('')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

/** The Slack channel adapter. */
export function createSlackAdapter(options: SlackAdapterOptions): SlackAdapter {
  const { config, logger } = options;
  const settings = config.channels.slack;
  const allowed = new Set(settings.allowed_users);
  const refused = new Set<string>();
  /** True the first time a user is refused in this run (one polite answer each). */
  const firstRefusal = (user: string): boolean => {
    if (refused.has(user)) return false;
    refused.add(user);
    return true;
  };
  let app: App | null = null;
  let socket: SocketConnection | null = null;
  let outbox: Outbox | null = null;

  const teamOk = (team: string | undefined): boolean =>
    settings.team_id === undefined || team === settings.team_id;

  return {
    name: 'slack',
    async start(service) {
      const token = required(options.env, 'SLACK_BOT_TOKEN', 'the bot token, xoxb-...');
      const bot = await whoAmI(token, settings.api_url);
      const made = createApp(options, bot);
      const created = made.app;
      app = created;
      socket = made.socket;
      const state = options.stateDir ?? defaultStateDir(options.env);
      outbox = await startChannelOutbox({
        channel: 'slack',
        inner: createSlackSink(created.client, logger),
        classify: slackDeliveryFailure,
        split: (text) => splitMessage(text, SLACK_TEXT_LIMIT),
        service,
        config,
        stateDir: state,
        logger,
        ...(options.health === undefined ? {} : { health: options.health }),
      });
      const sink: ChannelSink = outbox;
      service.attach('slack', sink);
      const pairing = createPairingStore(pairingFile(state, 'slack'));

      async function refuse(user: string, chatId: string, direct: boolean): Promise<void> {
        logger.warn(
          { user },
          'slack message from a user who is not allowed; refused, not sent to the model',
        );
        if (!direct) {
          if (firstRefusal(user)) await sink.sendText(chatId, CHANNEL_REFUSAL);
          return;
        }
        const asked = await pairing.request(user);
        // Paired meanwhile (by an earlier message of theirs): this one was sent before; no reply.
        if (asked === null) return;
        const first = firstRefusal(user);
        if (asked.fresh || first) await sink.sendText(chatId, strangerReply(asked.code));
      }

      async function receive(
        message: {
          user?: string;
          text?: string;
          ts: string;
          thread_ts?: string;
          channel: string;
          team?: string;
        },
        direct: boolean,
      ): Promise<void> {
        const user = message.user;
        if (user === undefined || !teamOk(message.team)) return;
        // A DM's top level is one conversation; a thread (in a DM or a channel) is its own.
        const thread = message.thread_ts ?? (direct ? '' : message.ts);
        const chatId = slackChatId(message.channel, thread);
        if (!allowed.has(user) && !(await pairing.isPaired(user))) {
          await refuse(user, chatId, direct);
          return;
        }
        const text = withoutMention(message.text ?? '', bot.botUserId);
        await service.handleMessage(
          { channel: 'slack', chatId, sender: `slack:${user}`, text },
          sink,
        );
      }
      const report = (what: string) => (error: unknown) =>
        logger.error({ err: error }, `slack ${what} failed`);

      created.event('app_mention', ({ event, body }) => {
        void receive({ ...event, team: body.team_id }, false).catch(report('mention handler'));
        return Promise.resolve();
      });
      created.message(({ message, body }) => {
        // Mentions in channels arrive as app_mention; here only direct messages, and never bots.
        if (message.channel_type !== 'im' || message.subtype !== undefined)
          return Promise.resolve();
        void receive({ ...message, team: body.team_id }, true).catch(report('message handler'));
        return Promise.resolve();
      });
      created.action(/^a:/, async ({ ack, body, action, client }) => {
        await ack();
        const decoded = 'action_id' in action ? decodeButton(action.action_id) : null;
        const team = body.team?.id;
        if (decoded === null || !teamOk(team)) return;
        const channel = body.channel?.id;
        const ts =
          'container' in body ? (body.container as { message_ts?: unknown }).message_ts : undefined;
        const cardRef =
          channel === undefined || typeof ts !== 'string' ? {} : { cardRef: { channel, ts } };
        void service
          .resolveApproval({ ...decoded, presser: `slack:${body.user.id}`, ...cardRef }, sink)
          .then(async (result) => {
            if (result === 'resolved' || channel === undefined) return;
            await client.chat.postEphemeral({
              channel,
              user: body.user.id,
              text: pressNotice(result, decoded.answer),
            });
          })
          .catch(report('button handler'));
      });
      created.error((error) => {
        logger.error({ err: error }, 'slack app error');
        return Promise.resolve();
      });
      await created.start().catch((error: unknown) => {
        throw socket === null ? error : socketStartError(error);
      });
      logger.info(
        { mode: settings.mode, port: settings.mode === 'http' ? settings.port : undefined },
        'slack channel started',
      );
    },
    async stop() {
      socket?.stop();
      await app?.stop();
      await outbox?.stop();
    },
  };
}
