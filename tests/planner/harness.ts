// The whole chat path for planner tests, built by the real composition root (real
// pipeline, stores, turn log in the test's XDG dirs) with the model injected, plus a
// channel sink that records what a person would see.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App } from '../../runtime/app.ts';
import type { ApprovalCard } from '../../runtime/approvals/card.ts';
import type { MessageRef } from '../../runtime/approvals/types.ts';
import { parseConfig, type ConfigInput } from '../../runtime/config.ts';
import type { LlmClient } from '../../runtime/llm/client.ts';
import type { ChannelSink } from '../../runtime/planner/chat-service.ts';

export type SinkEntry =
  | { kind: 'text'; chatId: string; text: string }
  | { kind: 'card'; chatId: string; card: ApprovalCard; approvalId: string | null }
  | { kind: 'update'; ref: MessageRef; text: string }
  | { kind: 'step'; chatId: string; line: string }
  | { kind: 'typing'; chatId: string };

export interface RecordingSink extends ChannelSink {
  readonly entries: SinkEntry[];
  texts(chatId?: string): string[];
  /** The approval cards (with an id) posted so far. */
  approvals(): { card: ApprovalCard; approvalId: string }[];
}

/** A sink that records everything sent to every chat. */
export function createRecordingSink(): RecordingSink {
  const entries: SinkEntry[] = [];
  return {
    entries,
    texts: (chatId) =>
      entries.flatMap((entry) =>
        entry.kind === 'text' && (chatId === undefined || entry.chatId === chatId)
          ? [entry.text]
          : [],
      ),
    approvals: () =>
      entries.flatMap((entry) =>
        entry.kind === 'card' && entry.approvalId !== null
          ? [{ card: entry.card, approvalId: entry.approvalId }]
          : [],
      ),
    sendText(chatId, text) {
      entries.push({ kind: 'text', chatId, text });
      return Promise.resolve();
    },
    sendCard(chatId, card, approvalId) {
      entries.push({ kind: 'card', chatId, card, approvalId });
      return Promise.resolve(approvalId === null ? null : { chatId, approvalId });
    },
    updateCard(ref, text) {
      entries.push({ kind: 'update', ref, text });
      return Promise.resolve();
    },
    typing(chatId) {
      entries.push({ kind: 'typing', chatId });
      return Promise.resolve();
    },
    step(chatId, line) {
      entries.push({ kind: 'step', chatId, line });
      return Promise.resolve();
    },
  };
}

/** A fresh state dir (history, approvals, rules, turn log) so tests in one file do not share cards. */
export function freshStateHome(): string {
  return mkdtempSync(join(process.env.HOME ?? tmpdir(), 'state-'));
}

/** The real app with this model and config (defaults otherwise), on its own state dir unless given one. */
export function startApp(
  client: LlmClient,
  config: ConfigInput = {},
  stateHome: string = freshStateHome(),
): Promise<App> {
  return createApp({
    config: parseConfig(config),
    env: { ...process.env, XDG_STATE_HOME: stateHome },
    client,
  });
}

/** A message from the test's person in chat `chatId` of the local channel. */
export function says(text: string, chatId = 'c1', sender = 'local:tester') {
  return { channel: 'local' as const, chatId, sender, text };
}
