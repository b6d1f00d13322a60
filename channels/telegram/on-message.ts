// One incoming Telegram message: pairing, who may talk, group etiquette, what cannot be read.
// In a private chat every message is for the bot; in a group only those that mention it or
// answer one of its messages (channels.telegram.group_replies: all to answer everything), and
// each turn carries its author's name, so one group history still says who asked what.
import type { Context } from 'grammy';
import type { Message, UserFromGetMe } from 'grammy/types';
import type { ChannelSink, ChatPort } from '../../runtime/approvals/press-card.ts';
import type { Logger } from '../../runtime/log/logger.ts';
import { strangerReply } from '../pairing/stranger-reply.ts';
import { attachmentOf, type Attachment, type SaveResult } from './attachments.ts';
import type { TelegramAccess } from './pairing.ts';

const PAIR_REPLIES = {
  paired: 'Paired. You can talk to me now.',
  already_allowed: 'You are already allowed to talk to me.',
  wrong_code: 'That code is not right. Use the code from the daemon log.',
} as const;

const UNREADABLE =
  'I can read text, documents and photos; this kind of message (a voice message, sticker, video, location...) I cannot handle, and nothing was saved.';

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export interface MessageDeps {
  readonly service: ChatPort;
  readonly access: TelegramAccess;
  readonly sink: ChannelSink;
  readonly logger: Logger;
  readonly me: UserFromGetMe;
  readonly groupReplies: 'mention' | 'all';
  /** Saves a document or photo in the inbox (see attachments.ts). */
  readonly saveAttachment: (attachment: Attachment) => Promise<SaveResult>;
  readonly maxAttachmentBytes: number;
  /** Runs a turn with the chat's typing indicator on. */
  readonly typing: (chatId: string, work: () => Promise<void>) => Promise<void>;
}

function isGroup(message: Message): boolean {
  return message.chat.type === 'group' || message.chat.type === 'supergroup';
}

/** The bot's @name as written in the text or caption (mention entities only, any case). */
function mentionsOfBot(message: Message, me: UserFromGetMe): { offset: number; length: number }[] {
  const text = message.text ?? message.caption ?? '';
  const name = `@${me.username}`.toLowerCase();
  return (message.entities ?? message.caption_entities ?? []).filter(
    (entity) =>
      (entity.type === 'mention' &&
        text.slice(entity.offset, entity.offset + entity.length).toLowerCase() === name) ||
      (entity.type === 'text_mention' && entity.user.id === me.id),
  );
}

/** Whether a group message is for the bot: it mentions it, answers it, or is a command. */
function addressedToBot(message: Message, me: UserFromGetMe): boolean {
  if (message.reply_to_message?.from?.id === me.id) return true;
  if (mentionsOfBot(message, me).length > 0) return true;
  const command = /^\/\w+(?:@(\w+))?/.exec(message.text ?? message.caption ?? '');
  return (
    command !== null &&
    (command[1] === undefined || command[1].toLowerCase() === me.username.toLowerCase())
  );
}

/** The text without the bot's own mentions (other people's @names stay: they mean someone). */
function withoutBotMention(message: Message, me: UserFromGetMe): string {
  let text = message.text ?? message.caption ?? '';
  for (const entity of mentionsOfBot(message, me).sort((a, b) => b.offset - a.offset))
    text = text.slice(0, entity.offset) + text.slice(entity.offset + entity.length);
  return text
    .replace(/^(\/\w+)@\w+/, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** How a group names the author of a turn. */
function authorName(message: Message): string {
  const from = message.from;
  if (from === undefined) return 'someone';
  const name = [from.first_name, from.last_name].filter(Boolean).join(' ');
  return from.username === undefined ? name : `${name} (@${from.username})`;
}

/**
 * A message without text: a document or photo is saved in the inbox and the turn names its path
 * (after the caption); anything else, or a failed save, is answered here (null: no turn).
 */
async function attachmentTurn(
  ctx: Context,
  message: Message,
  deps: MessageDeps,
): Promise<string | null> {
  const chatId = String(message.chat.id);
  const attachment = attachmentOf(message);
  if (attachment === null) {
    deps.logger.info(
      { chatId, kinds: Object.keys(message) },
      'telegram message without text or file: not handled',
    );
    await ctx.reply(UNREADABLE);
    return null;
  }
  const saved = await deps.saveAttachment(attachment);
  deps.logger.info({ chatId, result: saved.kind }, 'telegram attachment');
  switch (saved.kind) {
    case 'too_big':
      await ctx.reply(
        `That file is too big for me (${megabytes(saved.bytes)}; I save files up to ${megabytes(deps.maxAttachmentBytes)}). Nothing was saved.`,
      );
      return null;
    case 'failed':
      await ctx.reply(`I could not save that file (${saved.reason}). Nothing was saved.`);
      return null;
    case 'saved': {
      await ctx.reply(`Saved to ${saved.path}.`);
      const caption = withoutBotMention(message, deps.me);
      const type = attachment.mime === undefined ? '' : `, ${attachment.mime}`;
      return `${caption === '' ? '' : `${caption}\n`}[I sent a file: it is saved at ${saved.path} (${String(saved.bytes)} bytes${type})]`;
    }
  }
}

/** Handle one message update (never throws for an expected outcome). */
export async function onMessage(ctx: Context, deps: MessageDeps): Promise<void> {
  const message = ctx.message;
  const from = message?.from;
  if (message === undefined || from === undefined || from.is_bot) return;
  const { access, logger, me } = deps;
  const group = isGroup(message);
  if (group && deps.groupReplies === 'mention' && !addressedToBot(message, me)) return;
  const chatId = String(message.chat.id);
  const label = [from.first_name, from.username === undefined ? '' : `@${from.username}`]
    .filter(Boolean)
    .join(' ');
  const pair = /^\/pair(?:@\w+)?(?:\s+(\S+))?\s*$/.exec((message.text ?? '').trim());
  if (pair !== null) {
    await ctx.reply(PAIR_REPLIES[await access.pair(from.id, pair[1] ?? '', label)]);
    return;
  }
  if (!(await access.isAllowed(from.id))) {
    logger.warn(
      { user: from.id, group },
      'telegram message from a user who is not allowed; refused, not sent to the model',
    );
    // A code is for the person alone: in a group a stranger is only ignored.
    if (group) return;
    const asked = await access.request(from.id, label);
    // Paired meanwhile (by an earlier message of theirs): this one was sent before; no reply.
    if (asked === null) return;
    const first = access.firstRefusal(from.id);
    if (asked.fresh || first) await ctx.reply(strangerReply(asked.code));
    return;
  }
  const said =
    message.text === undefined
      ? await attachmentTurn(ctx, message, deps)
      : withoutBotMention(message, me);
  if (said === null) return;
  const text = group && !said.startsWith('/') ? `[${authorName(message)}]: ${said}` : said;
  await deps.typing(chatId, async () => {
    try {
      await deps.service.handleMessage(
        { channel: 'telegram', chatId, sender: `telegram:${String(from.id)}`, text },
        deps.sink,
      );
    } catch (error) {
      logger.error({ err: error, chatId }, 'telegram turn failed');
      await deps.sink.sendText(
        chatId,
        'Sorry, something went wrong on my side. The details are in the daemon log.',
      );
    }
  });
}
