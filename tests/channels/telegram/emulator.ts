// The telegram-test-api emulator on a free 127.0.0.1 port, plus what the tests read off it:
// the bot's messages per chat (as edited) and a client per user.
import { TelegramServer, type StoredBotUpdate } from 'telegram-test-api/lib/telegramServer.js';
import type { InlineKeyboardButton } from 'grammy/types';
import { vi } from 'vitest';
import { freePort } from '../../../runtime/bench/free-port.ts';

export interface Emulator {
  readonly apiRoot: string;
  readonly token: string;
  readonly server: TelegramServer;
  client(userId: number, chatId?: number): ReturnType<TelegramServer['getClient']>;
  /** The bot's messages to a chat, oldest first, with edits applied. */
  botMessages(chatId: number): StoredBotUpdate['message'][];
  /** Waits until `predicate` holds for the chat's bot messages; returns them. */
  waitForBot(
    chatId: number,
    predicate: (messages: StoredBotUpdate['message'][]) => boolean,
  ): Promise<StoredBotUpdate['message'][]>;
  stop(): Promise<void>;
}

/** Starts an emulator for one bot token. */
export async function startEmulator(
  options: { port?: number; token?: string } = {},
): Promise<Emulator> {
  const server = new TelegramServer({
    port: options.port ?? (await freePort()),
    host: '127.0.0.1',
    storeTimeout: 600,
  });
  await server.start();
  const token = options.token ?? `123456:test-${String(Math.random()).slice(2)}`;
  const botMessages = (chatId: number): StoredBotUpdate['message'][] =>
    server.storage.botMessages
      .filter(
        (update) => update.botToken === token && String(update.message.chat_id) === String(chatId),
      )
      .map((update) => update.message);
  return {
    apiRoot: server.config.apiURL,
    token,
    server,
    client: (userId, chatId = userId) =>
      server.getClient(token, { userId, chatId, firstName: `user${String(userId)}` }),
    botMessages,
    async waitForBot(chatId, predicate) {
      return vi.waitFor(
        () => {
          const messages = botMessages(chatId);
          if (!predicate(messages))
            throw new Error(
              `bot messages to ${String(chatId)}: ${JSON.stringify(messages.map((m) => m.text))}`,
            );
          return messages;
        },
        { timeout: 15_000, interval: 20 },
      );
    },
    async stop() {
      await server.stop();
    },
  };
}

/** The inline buttons of a bot message, row by row flattened: label and callback data. */
export function buttons(
  message: StoredBotUpdate['message'] | undefined,
): { text: string; data: string }[] {
  const markup = message?.reply_markup;
  const rows: InlineKeyboardButton[][] =
    markup !== undefined && 'inline_keyboard' in markup ? markup.inline_keyboard : [];
  return rows.flat().map((button) => ({
    text: button.text,
    data: 'callback_data' in button ? button.callback_data : '',
  }));
}

/** The callback_data of a card's button with this label, or throws. */
export function buttonData(message: StoredBotUpdate['message'] | undefined, label: string): string {
  const found = buttons(message).find((button) => button.text === label);
  if (found === undefined) throw new Error(`no button "${label}" on ${JSON.stringify(message)}`);
  return found.data;
}
