// The chat service's output on Telegram: plain text (no parse_mode, so no character in a
// path or command can break a message), long answers split, cards as inline keyboards.
import type { Api } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';
import type { ChannelSink } from '../../runtime/approvals/press-card.ts';
import { CARD_BUTTONS, encodeButton, renderCardText } from '../../runtime/approvals/render.ts';
import type { Logger } from '../../runtime/log/logger.ts';
import { splitMessage } from '../split-message.ts';

/** The buttons of a card: Allow once, Always allow, Deny (one row). */
export function cardKeyboard(approvalId: string): InlineKeyboardMarkup {
  return {
    inline_keyboard: [
      CARD_BUTTONS.map((b) => ({
        text: b.label,
        callback_data: encodeButton(approvalId, b.answer),
      })),
    ],
  };
}

/** A sink that writes to Telegram through `api` (auto-retry already installed on it). */
export function createTelegramSink(api: Api, logger: Logger): ChannelSink {
  return {
    async sendText(chatId, text) {
      for (const part of splitMessage(text.length > 0 ? text : '(empty answer)')) {
        await api.sendMessage(chatId, part);
      }
    },
    async sendCard(chatId, card, approvalId) {
      const text = splitMessage(renderCardText(card))[0] ?? card.headline;
      const withButtons = approvalId !== null && card.kind === 'approval';
      const message = await api.sendMessage(
        chatId,
        text,
        withButtons ? { reply_markup: cardKeyboard(approvalId) } : {},
      );
      return { chatId: message.chat.id, messageId: message.message_id };
    },
    async updateCard(ref, text) {
      const chatId = ref.chatId;
      const messageId = Number(ref.messageId);
      if (chatId === undefined || !Number.isInteger(messageId)) {
        logger.warn({ ref }, 'telegram card ref is incomplete; the card cannot be edited');
        return;
      }
      // An empty keyboard removes the buttons, so a decided card cannot be pressed again.
      await api.editMessageText(chatId, messageId, splitMessage(text)[0] ?? text, {
        reply_markup: { inline_keyboard: [] },
      });
    },
    typing(chatId) {
      // A courtesy, never awaited: a slow or failing call must not delay the answer queued
      // behind it in the chat's outbox. A failure is worth a debug line, no more.
      void api.sendChatAction(chatId, 'typing').catch((error: unknown) => {
        logger.debug({ err: error, chatId }, 'telegram typing indicator failed');
      });
      return Promise.resolve();
    },
  };
}
