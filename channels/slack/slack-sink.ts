// The chat service's output on Slack: answers in the thread of the asking message, cards
// in Block Kit, decided cards updated in place with chat.update.
import type { webApi } from '@slack/bolt';
import type { ChannelSink } from '../../runtime/approvals/press-card.ts';
import { renderCardText } from '../../runtime/approvals/render.ts';
import type { Logger } from '../../runtime/log/logger.ts';
import { SLACK_TEXT_LIMIT, splitMessage } from '../split-message.ts';
import { cardBlocks, escapeSlackText, resolvedBlocks } from './slack-blocks.ts';

/** A chat id names a channel and the thread to answer in: `<channel>/<thread_ts>`. */
export function slackChatId(channel: string, threadTs: string): string {
  return `${channel}/${threadTs}`;
}

/** The channel and thread of a chat id made by slackChatId. */
export function parseSlackChatId(chatId: string): { channel: string; threadTs: string } {
  const slash = chatId.indexOf('/');
  return slash < 0
    ? { channel: chatId, threadTs: '' }
    : { channel: chatId.slice(0, slash), threadTs: chatId.slice(slash + 1) };
}

function thread(threadTs: string): { thread_ts?: string } {
  return threadTs === '' ? {} : { thread_ts: threadTs };
}

/** A sink writing through Slack's Web API client. */
export function createSlackSink(client: webApi.WebClient, logger: Logger): ChannelSink {
  return {
    async sendText(chatId, text) {
      const { channel, threadTs } = parseSlackChatId(chatId);
      const body = text.length > 0 ? text : '(empty answer)';
      for (const part of splitMessage(body, SLACK_TEXT_LIMIT)) {
        await client.chat.postMessage({
          channel,
          ...thread(threadTs),
          text: escapeSlackText(part),
          mrkdwn: false,
        });
      }
    },
    async sendCard(chatId, card, approvalId) {
      const { channel, threadTs } = parseSlackChatId(chatId);
      const posted = await client.chat.postMessage({
        channel,
        ...thread(threadTs),
        text: escapeSlackText(renderCardText(card)),
        blocks: cardBlocks(card, approvalId),
      });
      if (posted.ts === undefined || posted.channel === undefined) {
        logger.warn(
          { channel },
          'slack did not return where the card was posted; it cannot be updated later',
        );
        return null;
      }
      return { channel: posted.channel, ts: posted.ts };
    },
    async updateCard(ref, text) {
      const channel = ref.channel;
      const ts = ref.ts;
      if (typeof channel !== 'string' || typeof ts !== 'string') {
        logger.warn({ ref }, 'slack card ref is incomplete; the card cannot be updated');
        return;
      }
      await client.chat.update({
        channel,
        ts,
        text: escapeSlackText(text),
        blocks: resolvedBlocks(text),
      });
    },
  };
}
