// `custode serve`: the hook gate kept warm behind HTTP on 127.0.0.1 (or a unix socket), so a
// Claude Code `http` hook costs milliseconds instead of a process start. Runs until SIGINT or
// SIGTERM.
import { chmod } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../config.ts';
import { createHookGate } from '../hooks/gate.ts';
import { createHookServer, hookPath } from '../hooks/server.ts';
import {
  CONFIG_DETAIL,
  configOption,
  helpText,
  parseCommand,
  UsageError,
  type CliIo,
  type CommandSpec,
} from './io.ts';
import { untilSignal } from './signals.ts';

export const defaultPort = 8719;

export const spec = {
  usage: 'custode serve [--port n | --socket path] [--config path]',
  details: [
    `--port n        listen on http://127.0.0.1:n${hookPath} (default ${String(defaultPort)}; 0 picks a free port)`,
    '--socket path   listen on a unix socket instead (mode 0600)',
    CONFIG_DETAIL,
  ],
  options: { ...configOption, port: { type: 'string' }, socket: { type: 'string' } },
} satisfies CommandSpec;

function portOf(text: string | undefined): number {
  if (text === undefined) return defaultPort;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new UsageError(
      `--port must be a whole number from 0 to 65535, got "${text}"`,
      helpText(spec),
    );
  return port;
}

/** Run `custode serve`. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommand(argv, spec);
  if (values.port !== undefined && values.socket !== undefined)
    throw new UsageError('give --port or --socket, not both', helpText(spec));
  const port = portOf(values.port);
  const { config } = await loadConfig(values.config, io.env);
  const gate = createHookGate({ config, env: io.env, agent: 'claude-code' });
  const server = createHookServer(gate);
  const signal = untilSignal();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      if (values.socket === undefined) server.listen(port, '127.0.0.1', resolve);
      else server.listen(values.socket, resolve);
    });
    let where: string;
    if (values.socket === undefined) {
      where = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}${hookPath}`;
    } else {
      // Only this user may ask: the socket's mode is the unix socket's access control.
      await chmod(values.socket, 0o600);
      where = `unix:${values.socket} ${hookPath}`;
    }
    io.stderr.write(`custode serve: listening on ${where}\n`);
    await signal.promise;
    return 0;
  } finally {
    signal.dispose();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await gate.close();
  }
}
