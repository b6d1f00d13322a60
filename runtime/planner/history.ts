// Per-chat conversation history, bounded and persisted (atomic temp + rename) so a
// restart keeps context. One JSON file per chat, `v: 1`, validated on read; a corrupt
// file is moved aside and the chat starts fresh rather than crashing.
import { rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { isMissing, readJsonFile, writeFileAtomic } from '../state-store.ts';
import { withFileLock } from '../state-lock.ts';
import type { ChatMessage } from '../llm/client.ts';
import type { Logger } from '../log/logger.ts';
import { messageSchema } from './turn-state.ts';

const historyFileSchema = z.strictObject({ v: z.literal(1), messages: z.array(messageSchema) });

export interface HistoryLimits {
  readonly maxMessages: number;
  readonly maxChars: number;
}

export interface HistoryStore {
  /** The chat's saved messages (no system prompt), oldest first. */
  load(chatKey: string): Promise<ChatMessage[]>;
  /** Replace the chat's history with the newest messages that fit the limits. */
  save(chatKey: string, messages: readonly ChatMessage[]): Promise<void>;
  /**
   * Add one turn's messages after what the file holds now, under its lock: a turn that ran
   * beside another process's turn on the same chat (two terminals) loses neither.
   */
  append(chatKey: string, turn: readonly ChatMessage[]): Promise<void>;
  clear(chatKey: string): Promise<void>;
}

function size(message: ChatMessage): number {
  return (
    message.content.length +
    ('toolCalls' in message && message.toolCalls ? JSON.stringify(message.toolCalls).length : 0)
  );
}

/**
 * The newest messages within the limits, starting at a user message: a cut never leaves
 * a tool result without the assistant call it answers.
 */
export function boundHistory(
  messages: readonly ChatMessage[],
  limits: HistoryLimits,
): ChatMessage[] {
  const kept = messages.filter((message) => message.role !== 'system');
  let start = Math.max(0, kept.length - limits.maxMessages);
  let chars = kept.slice(start).reduce((sum, message) => sum + size(message), 0);
  while (start < kept.length && (chars > limits.maxChars || kept[start]?.role !== 'user')) {
    chars -= size(kept[start] as ChatMessage);
    start += 1;
  }
  return kept.slice(start);
}

/** Chat keys come from channels (ids with ":" and "-"); the file name encodes them safely. */
function fileFor(dir: string, chatKey: string): string {
  return join(dir, `${Buffer.from(chatKey).toString('base64url')}.json`);
}

/** A history store under `dir` (normally $XDG_STATE_HOME/custode/history). */
export function createHistoryStore(
  dir: string,
  limits: HistoryLimits,
  logger: Logger,
): HistoryStore {
  const write = (chatKey: string, messages: readonly ChatMessage[]): Promise<void> => {
    const text = JSON.stringify({ v: 1, messages: boundHistory(messages, limits) });
    // No fsync: history is context, not a record, and a flush per turn would dominate the
    // planner's cost. The rename still leaves the old history or the new one, never half.
    return writeFileAtomic(fileFor(dir, chatKey), text, { durable: false });
  };
  const store: HistoryStore = {
    async load(chatKey) {
      const file = fileFor(dir, chatKey);
      const read = await readJsonFile(file, historyFileSchema);
      if (read.kind === 'missing') return [];
      if (read.kind === 'ok') return read.value.messages as ChatMessage[];
      const aside = `${file}.corrupt-${String(Date.now())}`;
      await rename(file, aside).catch(() => undefined);
      logger.warn({ chatKey, file: aside }, 'history file is corrupt; moved aside, starting fresh');
      return [];
    },
    save: (chatKey, messages) =>
      withFileLock(fileFor(dir, chatKey), () => write(chatKey, messages)),
    append: (chatKey, turn) =>
      withFileLock(fileFor(dir, chatKey), async () =>
        write(chatKey, [...(await store.load(chatKey)), ...turn]),
      ),
    async clear(chatKey) {
      await unlink(fileFor(dir, chatKey)).catch((error: unknown) => {
        if (!isMissing(error)) throw error;
      });
    },
  };
  return store;
}
