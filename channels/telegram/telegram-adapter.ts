// The Telegram channel (grammY): long polling by default (no public URL needed), a webhook
// when configured. Only allowed or paired users reach the chat service; everyone else gets
// one polite refusal per run. Handlers never await a turn inside grammY's update loop, so
// one slow chat (or one waiting on a card) never holds up the others.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { autoRetry } from '@grammyjs/auto-retry';
import { Bot, GrammyError, webhookCallback, type Context, type Transformer } from 'grammy';
import type { ChannelSink, ChatPort } from '../../runtime/approvals/press-card.ts';
import { decodeButton, pressNotice } from '../../runtime/approvals/render.ts';
import type { Config } from '../../runtime/config.ts';
import { ConfigError } from '../../runtime/errors.ts';
import { resolvePath } from '../../executors/resolve-path.ts';
import type { ChannelHealth } from '../../runtime/health/channel-health.ts';
import type { Logger } from '../../runtime/log/logger.ts';
import { stateDir as defaultStateDir } from '../../runtime/paths.ts';
import { createTelegramAccess, type TelegramAccess } from './pairing.ts';
import { saveAttachment, type Attachment, type InboxSettings } from './attachments.ts';
import { onMessage } from './on-message.ts';
import { createTelegramSink } from './telegram-sink.ts';
import { telegramDeliveryFailure } from './delivery-failure.ts';
import { startChannelOutbox } from '../../runtime/outbox/channel-outbox.ts';
import type { Outbox } from '../../runtime/outbox/outbox.ts';
import { splitMessage } from '../split-message.ts';
import type { RemoteAdapterOptions } from '../adapter.ts';

/** Telegram shows "typing…" for about 5 seconds; refresh it a little sooner while a turn runs. */
const TYPING_EVERY_MS = 4_500;
const UPDATES = ['message', 'callback_query'] as const;

export interface TelegramAdapterOptions extends RemoteAdapterOptions {
  /** Webhook mode: the secret Telegram must echo in every update (default: random per run). */
  readonly webhookSecret?: string;
}

export interface TelegramAdapter {
  readonly name: 'telegram';
  /** Connects (getMe fails fast on a bad token) and starts receiving; resolves once running. */
  start(service: ChatPort): Promise<void>;
  stop(): Promise<void>;
}

interface Handlers {
  readonly service: ChatPort;
  readonly access: TelegramAccess;
  readonly sink: ChannelSink;
  readonly logger: Logger;
  readonly groupReplies: 'mention' | 'all';
  readonly inbox: InboxSettings;
}

async function withTyping(
  sink: ChannelSink,
  chatId: string,
  work: () => Promise<void>,
): Promise<void> {
  void sink.typing?.(chatId);
  const timer = setInterval(() => void sink.typing?.(chatId), TYPING_EVERY_MS);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
}

async function onPress(ctx: Context, handlers: Handlers): Promise<void> {
  const data = ctx.callbackQuery?.data;
  const decoded = data === undefined ? null : decodeButton(data);
  if (decoded === null || ctx.from === undefined) {
    await ctx.answerCallbackQuery({ text: 'Unknown button.' });
    return;
  }
  const presser = `telegram:${String(ctx.from.id)}`;
  const { service, sink, logger } = handlers;
  const card = ctx.callbackQuery?.message;
  // Where the pressed card is: its ref may not be saved yet when the outbox posted it late.
  const cardRef =
    card === undefined || typeof card.message_id !== 'number'
      ? {}
      : { cardRef: { chatId: card.chat.id, messageId: card.message_id } };
  const { outcome, resumed } = await service.decideApproval(
    { ...decoded, presser, ...cardRef },
    sink,
  );
  // Answered before the resumed turn runs: Telegram gives a callback only seconds, and an
  // approved command may take minutes. A failed answer only costs the toast.
  await ctx
    .answerCallbackQuery({ text: pressNotice(outcome, decoded.answer) })
    .catch((error: unknown) => logger.warn({ err: error }, 'telegram callback answer failed'));
  const chatId = ctx.chat?.id;
  if (outcome === 'resolved' && chatId !== undefined)
    await withTyping(sink, String(chatId), () => resumed);
  else await resumed;
}

function install(bot: Bot, handlers: Handlers): void {
  const report = (what: string) => (error: unknown) =>
    handlers.logger.error({ err: error }, `telegram ${what} failed`);
  bot.on('message', (ctx) => {
    const deps = {
      ...handlers,
      me: ctx.me,
      saveAttachment: (attachment: Attachment) =>
        saveAttachment(ctx.api, attachment, handlers.inbox),
      maxAttachmentBytes: handlers.inbox.maxBytes,
      typing: (chatId: string, work: () => Promise<void>) =>
        withTyping(handlers.sink, chatId, work),
    };
    void onMessage(ctx, deps).catch(report('message handler'));
  });
  bot.on('callback_query:data', (ctx) => {
    void onPress(ctx, handlers).catch(report('button handler'));
  });
  bot.catch((error) =>
    handlers.logger.error(
      { err: error.error, update: error.ctx.update.update_id },
      'telegram update failed',
    ),
  );
}

/**
 * grammY retries a failed getUpdates by itself, silently: this makes each failure a log line
 * and counts failures in a row (doctor, /healthz). A transformer sees an API error as a
 * result with `ok: false` (grammY throws it later); no answer at all, as a thrown error.
 */
function logPollingFailures(logger: Logger, health: ChannelHealth | undefined): Transformer {
  const failed = (error: unknown): void => {
    logger.warn({ err: error }, 'telegram polling failed; retrying');
    health?.failed('telegram', 'polling', error);
  };
  return async (prev, method, payload, signal) => {
    try {
      const result = await prev(method, payload, signal);
      if (method !== 'getUpdates') return result;
      if (result.ok) health?.succeeded('telegram', 'polling');
      else failed(new Error(`${String(result.error_code)} ${result.description}`));
      return result;
    } catch (error) {
      if (method === 'getUpdates' && signal?.aborted !== true) failed(error);
      throw error;
    }
  };
}

/** Long polling that survives its own failures: logged, backed off, restarted until stop(). */
async function pollForever(bot: Bot, logger: Logger, stopped: AbortSignal): Promise<void> {
  let delayMs = 1_000;
  while (!stopped.aborted) {
    try {
      await bot.start({
        allowed_updates: UPDATES,
        onStart: () => {
          delayMs = 1_000;
          logger.info('telegram long polling started');
        },
      });
      if (!stopped.aborted) logger.warn('telegram polling ended by itself; restarting');
    } catch (error) {
      if (stopped.aborted) break;
      const fatal = error instanceof GrammyError && error.error_code === 401;
      logger.error(
        { err: error, retry_in_ms: delayMs },
        fatal ? 'telegram rejected the bot token' : 'telegram polling failed; restarting',
      );
      await sleep(delayMs, undefined, { signal: stopped }).catch(() => undefined);
      delayMs = Math.min(delayMs * 2, 60_000);
    }
  }
}

async function startWebhook(
  bot: Bot,
  webhook: { url: string; port: number },
  secretToken: string,
  logger: Logger,
): Promise<Server> {
  const server = createServer(webhookCallback(bot, 'http', { secretToken }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject).listen(webhook.port, () => resolve());
  });
  await bot.api.setWebhook(webhook.url, { secret_token: secretToken, allowed_updates: UPDATES });
  logger.info({ port: webhook.port }, 'telegram webhook listening');
  return server;
}

/** Where attachments go: channels.telegram.inbox_dir, else custode-inbox in the first roots.write. */
export function inboxDir(config: Config, env: NodeJS.ProcessEnv): string {
  const configured = config.channels.telegram.inbox_dir;
  if (configured !== undefined) return resolvePath(configured, env);
  return join(resolvePath(config.roots.write[0] ?? '~', env), 'custode-inbox');
}

/** The Telegram channel adapter (the daemon's registry creates it when channels.telegram.enabled). */
export function createTelegramAdapter(options: TelegramAdapterOptions): TelegramAdapter {
  const settings = options.config.channels.telegram;
  const { logger } = options;
  const stopping = new AbortController();
  let bot: Bot | null = null;
  let polling: Promise<void> | null = null;
  let server: Server | null = null;
  let outbox: Outbox | null = null;

  return {
    name: 'telegram',
    async start(service) {
      const token = options.env.TELEGRAM_BOT_TOKEN;
      if (token === undefined || token === '') {
        throw new ConfigError(
          'TELEGRAM_BOT_TOKEN is not set. Fix: export TELEGRAM_BOT_TOKEN=<token from @BotFather>, or set channels.telegram.enabled: false.',
        );
      }
      const apiRoot = settings.api_root ?? options.env.TELEGRAM_API_ROOT;
      bot = new Bot(token, apiRoot === undefined || apiRoot === '' ? {} : { client: { apiRoot } });
      // 429s wait as told (flood control); a 5xx fails at once rather than stall the chat's outbox.
      // Installed first, so it sits inside auto-retry and sees every failed attempt.
      bot.api.config.use(logPollingFailures(logger, options.health));
      bot.api.config.use(
        autoRetry({
          maxRetryAttempts: 5,
          maxDelaySeconds: 120,
          rethrowInternalServerErrors: true,
          // Network errors fail fast: polling retries on its own, and stop() must not hang
          // on an unreachable API.
          rethrowHttpErrors: true,
        }),
      );
      const state = options.stateDir ?? defaultStateDir(options.env);
      const access = createTelegramAccess({
        allowed: settings.allowed_users,
        stateDir: state,
        logger,
      });
      // Answers, cards and card edits the Bot API does not take are kept and retried.
      outbox = await startChannelOutbox({
        channel: 'telegram',
        inner: createTelegramSink(bot.api, logger),
        classify: telegramDeliveryFailure,
        split: (text) => splitMessage(text),
        service,
        config: options.config,
        stateDir: state,
        logger,
        ...(options.health === undefined ? {} : { health: options.health }),
      });
      const sink = outbox;
      // After a restart, expiry notices for cards posted before it need a way back to Telegram.
      service.attach('telegram', sink);
      install(bot, {
        service,
        access,
        sink,
        logger,
        groupReplies: settings.group_replies,
        inbox: {
          dir: inboxDir(options.config, options.env),
          maxBytes: settings.inbox_max_bytes,
          token,
          ...(apiRoot === undefined || apiRoot === '' ? {} : { apiRoot }),
        },
      });
      await bot.init();
      if (settings.webhook === undefined) polling = pollForever(bot, logger, stopping.signal);
      else {
        const secret = options.webhookSecret ?? randomBytes(24).toString('hex');
        server = await startWebhook(bot, settings.webhook, secret, logger);
      }
    },
    async stop() {
      stopping.abort();
      // stop() confirms the last update offset with one more call; if the API is unreachable
      // that call fails, which must not keep the daemon from stopping.
      if (bot?.isRunning() === true) {
        await bot
          .stop()
          .catch((error: unknown) =>
            logger.warn({ err: error }, 'telegram stop could not confirm the update offset'),
          );
      }
      await polling;
      await outbox?.stop();
      if (server !== null) {
        const closing = server;
        await new Promise<void>((resolve) => closing.close(() => resolve()));
      }
    },
  };
}
