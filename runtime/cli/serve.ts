// `custode serve`: the hook gate kept warm behind HTTP on 127.0.0.1 (or a unix socket), so a
// Claude Code `http` hook costs milliseconds instead of a process start. Runs until SIGINT or
// SIGTERM.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../config.ts';
import { createHookGate } from '../hooks/gate.ts';
import { createHookServer, hookPath, tokenVariable } from '../hooks/server.ts';
import { stateDir } from '../paths.ts';
import {
  CONFIG_DETAIL,
  configOption,
  helpText,
  parseCommand,
  UsageError,
  type CliIo,
  type CommandSpec,
} from './io.ts';
import { createChecker } from './check.ts';
import { listenHookSocket, type HookSocket } from './hook-socket.ts';
import { untilSignal } from './signals.ts';

export const defaultPort = 8719;

export const spec = {
  usage: 'custode serve [--port n | --socket path] [--config path]',
  details: [
    `--port n        listen on http://127.0.0.1:n${hookPath} (default ${String(defaultPort)}; 0 picks a free port)`,
    '--socket path   listen on a unix socket instead (mode 0600)',
    'It also answers `custode hook` (command hooks) and a single `custode check` on $XDG_RUNTIME_DIR/custode/hook.sock (else $XDG_STATE_HOME/custode/hook.sock): they then start about as fast as a bare node.',
    `On 127.0.0.1 only requests with the header Authorization: Bearer $${tokenVariable} are judged: the token is $${tokenVariable} when set, else the one in $XDG_STATE_HOME/custode/hook-token (made on first use, mode 0600).`,
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

/** The shortest token accepted from the environment. */
const minTokenLength = 16;

/**
 * The token a request to 127.0.0.1 must carry: $CUSTODE_HOOK_TOKEN, else the one kept in the
 * state dir (made on first use, readable by this user alone).
 */
async function hookToken(env: NodeJS.ProcessEnv): Promise<string> {
  const given = env[tokenVariable];
  if (given !== undefined && given !== '') {
    if (given.length < minTokenLength)
      throw new UsageError(
        `${tokenVariable} must be at least ${String(minTokenLength)} characters`,
        helpText(spec),
      );
    return given;
  }
  const file = join(stateDir(env), 'hook-token');
  try {
    const kept = (await readFile(file, 'utf8')).trim();
    if (kept.length >= minTokenLength) return kept;
  } catch {
    // None yet: made below.
  }
  const made = randomBytes(32).toString('hex');
  await mkdir(stateDir(env), { recursive: true, mode: 0o700 });
  await writeFile(file, `${made}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return made;
}

/** Run `custode serve`. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommand(argv, spec);
  if (values.port !== undefined && values.socket !== undefined)
    throw new UsageError('give --port or --socket, not both', helpText(spec));
  const port = portOf(values.port);
  const { config } = await loadConfig(values.config, io.env);
  const token = values.socket === undefined ? await hookToken(io.env) : null;
  const gate = createHookGate({ config, env: io.env, agent: 'claude-code' });
  const server = createHookServer(gate, token);
  const signal = untilSignal();
  let hookSocket: HookSocket | null = null;
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
    const listening = await listenHookSocket(
      {
        gate: (agent, env) => createHookGate({ config, env, agent }),
        checker: (env) => createChecker(config, env),
      },
      io.env,
      values.config,
    );
    if (typeof listening === 'string') {
      io.stderr.write(
        `custode serve: custode hook and custode check decide in their own process (no hook socket: ${listening})\n`,
      );
    } else {
      hookSocket = listening;
      io.stderr.write(
        `custode serve: custode hook and custode check ask here through unix:${listening.path}\n`,
      );
    }
    io.stderr.write(`custode serve: listening on ${where}\n`);
    if (token !== null && io.env[tokenVariable] === undefined)
      io.stderr.write(
        `custode serve: requests must carry Authorization: Bearer <the token in ${join(stateDir(io.env), 'hook-token')}>; export ${tokenVariable} from it where Claude Code starts\n`,
      );
    await signal.promise;
    return 0;
  } finally {
    signal.dispose();
    await hookSocket?.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await gate.close();
  }
}
