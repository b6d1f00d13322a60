// `custode serve`'s hook socket: the server end of hook-client.cjs, so a command hook
// (`custode hook claude-code`) costs a bare node's start and a warm decision. One request per
// connection: the client writes `{ agent, context, payload }` and ends its side; the server
// answers the hook's reply (`{ stdout, stderr, exitCode }`) and ends. A request for another
// context (config file, HOME, XDG dirs, PATH) is declined, and the hook decides in-process.
import { isDeepStrictEqual } from 'node:util';
import { chmod, lstat, mkdir, unlink } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { HookAgent, HookAnswer, HookGate } from '../hooks/gate.ts';
import { claudeCodeCommandReply, codexCommandReply, type CommandReply } from '../hooks/replies.ts';
import { contextOf, hookSocketDir, hookSocketPath, untrustedSocket } from './hook-client.cjs';

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

/** The gate answering one agent's calls, made when that agent first asks. */
export type GateFor = (agent: HookAgent) => HookGate;

function isAgent(name: unknown): name is HookAgent {
  return typeof name === 'string' && Object.hasOwn(replies, name);
}

/** The reply to one request's text, or a decline (the hook then decides in-process). */
async function replyTo(text: string, gateFor: GateFor, context: object): Promise<object> {
  let request: { agent?: unknown; context?: unknown; payload?: unknown };
  try {
    request = JSON.parse(text) as typeof request;
  } catch {
    return { declined: 'the request is not JSON' };
  }
  if (!isAgent(request.agent) || typeof request.payload !== 'string')
    return { declined: 'the request names no known agent or carries no payload' };
  if (!isDeepStrictEqual(request.context, context))
    return { declined: 'this server decides for another config, home or PATH' };
  return replies[request.agent](await gateFor(request.agent).answer(request.payload));
}

function answer(socket: Socket, gateFor: GateFor, context: object): void {
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
    replyTo(Buffer.concat(chunks).toString('utf8'), gateFor, context).then(
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
 * Listen at the user's hook socket (hook-client.cjs hookSocketPath), answering for `env` and
 * `configPath`; returns the socket, or why hooks cannot use one (the caller says so and goes on
 * with its HTTP endpoint).
 */
export async function listenHookSocket(
  gateFor: GateFor,
  env: NodeJS.ProcessEnv,
  configPath: string | undefined,
): Promise<HookSocket | string> {
  const path = hookSocketPath(env);
  const uid = process.getuid?.();
  if (uid === undefined) return 'this system has no user ids to check a socket against';
  const problem = await prepare(hookSocketDir(env), path, uid);
  if (problem !== null) return problem;
  const context = contextOf(env, configPath);
  const server: Server = createServer({ allowHalfOpen: true }, (socket) =>
    answer(socket, gateFor, context),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, resolve);
  });
  const close = (): Promise<void> =>
    new Promise<void>((resolve) => server.close(() => resolve())).then(() =>
      unlink(path).catch(() => undefined),
    );
  await chmod(path, 0o600);
  // The hook trusts a socket only where others cannot put one of theirs: say so when it won't.
  const untrusted = untrustedSocket(path, uid);
  if (untrusted !== null) {
    await close();
    return `hooks would not trust it: ${untrusted}`;
  }
  return { path, close };
}
