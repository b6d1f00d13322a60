// `custode serve`'s hook socket: the server end of hook-client.cjs, so a command hook
// (`custode hook claude-code`) costs a bare node's start and a warm decision. One request per
// connection: the client writes `{ agent, context, payload }` and ends its side; the server
// answers the hook's reply (`{ stdout, stderr, exitCode }`) and ends. It decides with the hook's
// environment (the variables hook-client.cjs sends: HOME, XDG dirs, PATH, judge settings), as the
// hook would have in its own process; a request for another config file is declined, and the
// hook decides in-process.
import { chmod, lstat, mkdir, unlink } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { HookAgent, HookAnswer, HookGate } from '../hooks/gate.ts';
import { claudeCodeCommandReply, codexCommandReply, type CommandReply } from '../hooks/replies.ts';
import {
  contextOf,
  contextVariables,
  hookSocketDir,
  hookSocketPath,
  untrustedSocket,
} from './hook-client.cjs';

const replies: Readonly<Record<HookAgent, (answer: HookAnswer) => CommandReply>> = {
  'claude-code': claudeCodeCommandReply,
  codex: codexCommandReply,
};

/** A Write payload carries a whole file (the http path's limit), plus the request's fields. */
const maxRequestBytes = 16 * 1024 * 1024 + 64 * 1024;

export interface HookSocket {
  readonly path: string;
  close(): Promise<void>;
}

/** A gate for one agent deciding with `env`. */
export type MakeGate = (agent: HookAgent, env: NodeJS.ProcessEnv) => HookGate;

/** Gates kept for the agents and environments that asked last. */
const keptGates = 8;

/** The gates of one server: one per agent and environment, the latest few kept. */
function gatesOf(makeGate: MakeGate, serverEnv: NodeJS.ProcessEnv) {
  const gates = new Map<string, HookGate>();
  return {
    gateFor(agent: HookAgent, context: Readonly<Record<string, string | null>>): HookGate {
      const key = JSON.stringify([agent, contextVariables.map((name) => context[name] ?? null)]);
      const kept = gates.get(key);
      if (kept !== undefined) return kept;
      const env: NodeJS.ProcessEnv = { ...serverEnv };
      for (const name of contextVariables) {
        const value = context[name];
        if (typeof value === 'string') env[name] = value;
        // eslint-disable-next-line @typescript-eslint/no-dynamic-delete
        else delete env[name];
      }
      const made = makeGate(agent, env);
      gates.set(key, made);
      const [oldest] = gates.keys();
      if (gates.size > keptGates && oldest !== undefined) {
        void gates.get(oldest)?.close();
        gates.delete(oldest);
      }
      return made;
    },
    async close(): Promise<void> {
      for (const gate of gates.values()) await gate.close();
      gates.clear();
    },
  };
}

type Gates = ReturnType<typeof gatesOf>;

/** A context as the hook sends it: every variable a string or null, and the config's path. */
function isContext(value: unknown): value is Readonly<Record<string, string | null>> {
  if (value === null || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  return ['config', ...contextVariables].every(
    (name) => record[name] === null || typeof record[name] === 'string',
  );
}

function isAgent(name: unknown): name is HookAgent {
  return typeof name === 'string' && Object.hasOwn(replies, name);
}

/** The reply to one request's text, or a decline (the hook then decides in-process). */
async function replyTo(text: string, gates: Gates, config: string | null): Promise<object> {
  let request: { agent?: unknown; context?: unknown; payload?: unknown };
  try {
    request = JSON.parse(text) as typeof request;
  } catch {
    return { declined: 'the request is not JSON' };
  }
  if (!isAgent(request.agent) || typeof request.payload !== 'string')
    return { declined: 'the request names no known agent or carries no payload' };
  if (!isContext(request.context)) return { declined: 'the request carries no context' };
  if (request.context.config !== config)
    return { declined: 'this server decides with another config file' };
  const gate = gates.gateFor(request.agent, request.context);
  return replies[request.agent](await gate.answer(request.payload));
}

function answer(socket: Socket, gates: Gates, config: string | null): void {
  const chunks: Buffer[] = [];
  let size = 0;
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: Buffer) => {
    size += chunk.length;
    // Too large: the connection is cut, which the hook reads as no answer.
    if (size > maxRequestBytes) socket.destroy();
    else chunks.push(chunk);
  });
  socket.on('end', () => {
    replyTo(Buffer.concat(chunks).toString('utf8'), gates, config).then(
      (reply) => socket.end(JSON.stringify(reply)),
      () => socket.destroy(),
    );
  });
}

/** True when a server answers at `path` (another `custode serve` holds the socket). */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(path);
    probe.on('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.on('error', () => resolve(false));
  });
}

/**
 * Make the socket's directory (0700, this user's) and clear a socket no server answers at.
 * Returns why the socket cannot be used, or null.
 */
async function prepare(dir: string, path: string, uid: number): Promise<string | null> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const dirStat = await lstat(dir);
  if (!dirStat.isDirectory() || dirStat.uid !== uid)
    return `${dir} is not a directory of this user`;
  if ((dirStat.mode & 0o077) !== 0) await chmod(dir, 0o700);
  const existing = await lstat(path).catch(() => null);
  if (existing === null) return null;
  if (!existing.isSocket()) return `${path} is there and is not a socket`;
  if (await answers(path)) return `another server answers at ${path}`;
  await unlink(path);
  return null;
}

/**
 * Listen at the user's hook socket (hook-client.cjs hookSocketPath) of `env`, answering hooks run
 * with `configPath` through gates `makeGate` makes; returns the socket, or why hooks cannot use
 * one (the caller says so and goes on with its HTTP endpoint).
 */
export async function listenHookSocket(
  makeGate: MakeGate,
  env: NodeJS.ProcessEnv,
  configPath: string | undefined,
): Promise<HookSocket | string> {
  const path = hookSocketPath(env);
  const uid = process.getuid?.();
  if (uid === undefined) return 'this system has no user ids to check a socket against';
  const problem = await prepare(hookSocketDir(env), path, uid);
  if (problem !== null) return problem;
  const { config } = contextOf(env, configPath);
  const gates = gatesOf(makeGate, env);
  const server: Server = createServer({ allowHalfOpen: true }, (socket) =>
    answer(socket, gates, config ?? null),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, resolve);
  });
  const close = (): Promise<void> =>
    new Promise<void>((resolve) => server.close(() => resolve())).then(async () => {
      await unlink(path).catch(() => undefined);
      await gates.close();
    });
  await chmod(path, 0o600);
  // The hook trusts a socket only where others cannot put one of theirs: say so when it won't.
  const untrusted = untrustedSocket(path, uid);
  if (untrusted !== null) {
    await close();
    return `hooks would not trust it: ${untrusted}`;
  }
  return { path, close };
}
