// `custode chat`: a conversation in the terminal through the same chat service as
// Telegram and Slack. Approvals are asked inline, [o]nce / [a]lways / [n]o, with no
// default: a bare Enter asks again, so nothing is approved by accident.
import type { ApprovalAnswer } from '../../runtime/approvals/types.ts';
import type { ChatService } from '../../runtime/planner/chat-service.ts';
import { createLineReader } from './line-reader.ts';
import { createTerminalSink, type TerminalSink } from './terminal-sink.ts';

const answers: ReadonlyMap<string, ApprovalAnswer> = new Map([
  ['o', 'once'],
  ['once', 'once'],
  ['a', 'always'],
  ['always', 'always'],
  ['n', 'deny'],
  ['no', 'deny'],
]);

export interface TerminalChatOptions {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
  readonly tty: boolean;
  /** Channel-qualified sender, e.g. "local:alice". */
  readonly sender: string;
  /** Ctrl-C (the process): stops the running turn, or ends the chat when none runs. */
  readonly interrupts?: Pick<NodeJS.Process, 'on' | 'off'>;
  /** Ends the chat (the daemon stopping); the input is released so the process can exit. */
  readonly signal?: AbortSignal;
}

/** Asks until a card gets a valid answer; null when the input ends first. */
async function askCard(
  next: () => Promise<string | null>,
  sink: TerminalSink,
): Promise<ApprovalAnswer | null> {
  for (;;) {
    sink.write('[o]nce / [a]lways / [n]o? ');
    const line = await next();
    if (line === null) return null;
    const answer = answers.get(line.trim().toLowerCase());
    if (answer) return answer;
    sink.write('Please answer o, a or n.\n');
  }
}

/** Runs the chat until the input ends (EOF) or Ctrl-C with no turn running; says which. */
export async function runTerminalChat(
  service: ChatService,
  options: TerminalChatOptions,
): Promise<'eof' | 'interrupted'> {
  const sink = createTerminalSink(options.output, options.tty);
  const lines = createLineReader(options.input);
  options.signal?.addEventListener('abort', () => lines.close(), { once: true });
  const message = (text: string) => ({
    channel: 'local' as const,
    chatId: 'terminal',
    sender: options.sender,
    text,
  });
  let busy = false;
  let interrupted = false;
  const onInterrupt = (): void => {
    if (busy) {
      void service.handleMessage(message('/stop'), sink);
      return;
    }
    interrupted = true;
    lines.close();
  };
  options.interrupts?.on('SIGINT', onInterrupt);
  const during = async (work: () => Promise<unknown>): Promise<void> => {
    busy = true;
    try {
      await work();
    } finally {
      busy = false;
    }
  };
  try {
    for (;;) {
      if (options.tty) sink.write('> ');
      const line = await lines.next();
      if (line === null) return interrupted ? 'interrupted' : 'eof';
      if (line.trim() === '') continue;
      await during(() => service.handleMessage(message(line), sink));
      for (let card = sink.takeCard(); card !== null; card = sink.takeCard()) {
        const answer = await askCard(() => lines.next(), sink);
        // End of input with a card open: decline it, so the turn ends and nothing runs unasked.
        const presser = options.sender;
        await during(() =>
          service.resolveApproval(
            { approvalId: card.approvalId, presser, answer: answer ?? 'deny' },
            sink,
          ),
        );
        if (answer === null) return interrupted ? 'interrupted' : 'eof';
      }
    }
  } finally {
    options.interrupts?.off('SIGINT', onInterrupt);
    lines.close();
  }
}
