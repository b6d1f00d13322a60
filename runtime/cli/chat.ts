// `custode chat`: talk to Custode in this terminal (offline mode when no model is set up).
import { localSender } from '../../channels/local/local-adapter.ts';
import { runTerminalChat } from '../../channels/local/terminal-chat.ts';
import { createApp } from '../app.ts';
import { pressCard } from '../approvals/press-card.ts';
import { loadConfig } from '../config.ts';
import { createLogger } from '../log/logger.ts';
import { startDir } from './start-dir.ts';
import { CONFIG_DETAIL, configOption, parseCommand, type CliIo, type CommandSpec } from './io.ts';

export const spec = {
  usage: 'custode chat [--config path]',
  details: [CONFIG_DETAIL],
  options: configOption,
} satisfies CommandSpec;

/** Whether a stream is an interactive terminal. */
export function isTty(stream: NodeJS.WritableStream | NodeJS.ReadableStream): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}

/** Run `custode chat [--config path]`; Ctrl-C stops a running turn, Ctrl-D (or Ctrl-C when idle) quits. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommand(argv, spec);
  const { config } = await loadConfig(values.config, io.env);
  // The operator log shares the terminal here: only warnings unless asked for more.
  const logger = createLogger({ ...io.env, CUSTODE_LOG_LEVEL: io.env.CUSTODE_LOG_LEVEL ?? 'warn' });
  // Relative paths and commands start where the person is; the daemon keeps the home.
  const workdir = startDir(io.env);
  const app = await createApp({ config, env: io.env, logger, workdir });
  io.stdout.write(
    `Custode: model ${app.client.provider}/${app.client.model} (${app.providerReason}), working in ${workdir}. /help lists commands; Ctrl-C stops a turn; Ctrl-D quits.\n`,
  );
  try {
    const ended = await runTerminalChat(app.service, {
      input: io.stdin,
      output: io.stdout,
      tty: isTty(io.stdout),
      sender: localSender(io.env),
      interrupts: process,
      press: (press, sink) =>
        pressCard(
          { service: app.service, approvals: app.approvals, audit: app.audit },
          press,
          sink,
        ),
    });
    return ended === 'interrupted' ? 130 : 0;
  } finally {
    await app.close();
  }
}
