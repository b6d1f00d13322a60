// `custode serve`'s hook socket: the server end of hook-client.cjs, so a command hook (`custode
// hook claude-code`) or a single `custode check` costs a bare node's start and a warm decision.
// One request per connection: the client writes `{ agent, context, payload }` (a hook) or
// `{ command: 'check', context, payload }` and ends its side; the server answers the command's
// reply (`{ stdout, stderr, exitCode }`) and ends. It decides with the client's environment (the
// variables hook-client.cjs sends: HOME, XDG dirs, PATH, judge settings), as the command would
// have in its own process. A request it does not decide (another config file, a check where it
// has no checker, a request it cannot read) gets `{ declined }`, and the client decides
// in-process: nothing was decided or logged here.
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

/** Answers a single `custode check` input (its stdout), deciding with one environment. */
export interface Checker {
  answer(input: string): Promise<string>;
  close(): Promise<void>;
}

export type MakeChecker = (env: NodeJS.ProcessEnv) => Checker;

/** What the server decides with: hook gates, and a checker when it answers `custode check`. */
export interface Deciders {
  readonly gate: MakeGate;
  readonly checker?: MakeChecker;
}

type Context = Readonly<Record<string, string | null>>;

/** Gates and checkers kept for the environments that asked last. */
const keptDeciders = 8;

/** `serverEnv` with the client's variables in place of its own. */
function envOf(serverEnv: NodeJS.ProcessEnv, context: Context): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...serverEnv };
  for (const name of contextVariables) {
    const value = context[name];
    if (typeof value === 'string') env[name] = value;
    // eslint-disable-next-line @typescript-eslint/no-dynamic-delete
    else delete env[name];
  }
  return env;
}

/** A server's deciders: one per kind (an agent, or check) and environment, the latest kept. */
function decidersOf(serverEnv: NodeJS.ProcessEnv) {
  const kept = new Map<string, HookGate | Checker>();
  function keptFor<T extends HookGate | Checker>(
    kind: string,
    context: Context,
    make: (env: NodeJS.ProcessEnv) => T,
  ): T {
    const key = JSON.stringify([kind, contextVariables.map((name) => context[name] ?? null)]);
    const found = kept.get(key);
    if (found !== undefined) return found as T;
    const made = make(envOf(serverEnv, context));
    kept.set(key, made);
    const [oldest] = kept.keys();
    if (kept.size > keptDeciders && oldest !== undefined) {
      void kept.get(oldest)?.close();
      kept.delete(oldest);
    }
    return made;
  }
  return {
    keptFor,
    async close(): Promise<void> {
      for (const decider of kept.values()) await decider.close();
      kept.clear();
    },
  };
}

type Kept = ReturnType<typeof decidersOf>;

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

/** The reply to one request's text, or a decline (the client then decides in-process). */
async function replyTo(
  text: string,
  deciders: Deciders,
  kept: Kept,
  config: string | null,
): Promise<object> {
  let request: { agent?: unknown; command?: unknown; context?: unknown; payload?: unknown };
  try {
    request = JSON.parse(text) as typeof request;
  } catch {
    return { declined: 'the request is not JSON' };
  }
  const { agent, command, context, payload } = request;
  if (typeof payload !== 'string') return { declined: 'the request carries no payload' };
  if (!isContext(context)) return { declined: 'the request carries no context' };
  if (context.config !== config)
    return { declined: 'this server decides with another config file' };
  if (command === 'check') {
    const { checker } = deciders;
    if (checker === undefined) return { declined: 'this server does not answer custode check' };
    const stdout = await kept.keptFor('check', context, checker).answer(payload);
    return { stdout, stderr: '', exitCode: 0 };
  }
  if (!isAgent(agent)) return { declined: 'the request names no known agent' };
  const gate = kept.keptFor(agent, context, (env) => deciders.gate(agent, env));
  return replies[agent](await gate.answer(payload));
}

function answer(socket: Socket, deciders: Deciders, kept: Kept, config: string | null): void {
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
    replyTo(Buffer.concat(chunks).toString('utf8'), deciders, kept, config).then(
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
 * Listen at the user's hook socket (hook-client.cjs hookSocketPath) of `env`, answering hooks and
 * checks run with `configPath` through the gates and checkers `deciders` make; returns the
 * socket, or why commands cannot use one (the caller says so and goes on with its HTTP endpoint).
 */
export async function listenHookSocket(
  deciders: Deciders,
  env: NodeJS.ProcessEnv,
  configPath: string | undefined,
): Promise<HookSocket | string> {
  const path = hookSocketPath(env);
  const uid = process.getuid?.();
  if (uid === undefined) return 'this system has no user ids to check a socket against';
  const problem = await prepare(hookSocketDir(env), path, uid);
  if (problem !== null) return problem;
  const { config } = contextOf(env, configPath);
  const kept = decidersOf(env);
  const server: Server = createServer({ allowHalfOpen: true }, (socket) =>
    answer(socket, deciders, kept, config ?? null),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, resolve);
  });
  const close = (): Promise<void> =>
    new Promise<void>((resolve) => server.close(() => resolve())).then(async () => {
      await unlink(path).catch(() => undefined);
      await kept.close();
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
