// The terminal as a ChannelSink: plain text out, a "thinking…" indicator (erased in place on
// a TTY, a plain line otherwise), one line per tool step, cards as text blocks.
import type { ApprovalCard } from '../../runtime/approvals/card.ts';
import { renderCardText } from '../../runtime/approvals/render.ts';
import type { MessageRef } from '../../runtime/approvals/types.ts';
import type { ChannelSink } from '../../runtime/planner/chat-service.ts';

export interface TerminalSink extends ChannelSink {
  /** The approval card waiting for an answer, taken (cleared) by the caller. */
  takeCard(): { readonly approvalId: string; readonly card: ApprovalCard } | null;
  /** Writes text, after erasing a thinking indicator. */
  write(text: string): void;
}

/** A sink writing to `out`; `tty` chooses the in-place indicator. */
export function createTerminalSink(out: NodeJS.WritableStream, tty: boolean): TerminalSink {
  let thinking = false;
  let card: { approvalId: string; card: ApprovalCard } | null = null;
  const write = (text: string): void => {
    if (thinking && tty) out.write('\r\x1b[K');
    thinking = false;
    out.write(text);
  };
  return {
    write,
    takeCard() {
      const taken = card;
      card = null;
      return taken;
    },
    sendText(_chatId, text) {
      write(`${text}\n`);
      return Promise.resolve();
    },
    sendCard(_chatId, sent, approvalId): Promise<MessageRef | null> {
      write(`\n${renderCardText(sent)}\n`);
      if (approvalId === null) return Promise.resolve(null);
      card = { approvalId, card: sent };
      return Promise.resolve({ approvalId });
    },
    updateCard(_ref, text) {
      write(`${text}\n`);
      return Promise.resolve();
    },
    typing() {
      if (thinking) return Promise.resolve();
      write(tty ? 'thinking…' : 'thinking…\n');
      thinking = tty;
      return Promise.resolve();
    },
    step(_chatId, line) {
      write(`  · ${line}\n`);
      return Promise.resolve();
    },
  };
}
