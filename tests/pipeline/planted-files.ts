// What the red-team and tier tests plant and ask: files with their parents, git work trees with a
// fixed author, shell calls judged in bulk, and a loopback listener no uncarded call may reach.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { call, pipelineWithOwnState } from './pipeline-helpers.ts';

/** Write `content` at `path`, making its parent directories first. */
export async function plant(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
}

/** Run git with a fixed author and committer (a fresh HOME has no git identity); its output. */
export function git(...args: string[]): string {
  return execFileSync('git', args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'a',
      GIT_AUTHOR_EMAIL: 'a@a',
      GIT_COMMITTER_NAME: 'a',
      GIT_COMMITTER_EMAIL: 'a@a',
    },
  });
}

/**
 * Shell calls judged by the current test's pipeline: `decide` one command, or check many
 * against one decision. `pipeline` and `cwd` are read at each call (tests remake them).
 */
export function shellCalls(pipeline: () => Pipeline, defaultCwd: () => string, intent: string) {
  const decide = (command: string, cwd = defaultCwd()): Promise<PipelineOutcome> =>
    pipeline().evaluate(call('shell_exec', { command, cwd }, intent));
  return {
    decide,
    /** Decide and run a call that must be allowed; returns its result. */
    run: async (command: string, cwd = defaultCwd()): Promise<unknown> => {
      const outcome = await decide(command, cwd);
      expect(outcome, command).toMatchObject({ decision: 'allow' });
      const ran = await pipeline().invoke(outcome, new AbortController().signal);
      expect(ran, command).toMatchObject({ ok: true });
      return ran.ok ? ran.result : undefined;
    },
    /** Each command gets `decision`; a failure names the command. */
    expectDecisions: async (
      decision: PipelineOutcome['decision'],
      commands: readonly string[],
      cwd = defaultCwd(),
    ): Promise<void> => {
      for (const command of commands)
        expect(await decide(command, cwd), command).toMatchObject({ decision });
    },
    /** Each command asks or is refused: never runs without a card. */
    expectNotAllowed: async (commands: readonly string[], cwd = defaultCwd()): Promise<void> => {
      for (const command of commands)
        expect((await decide(command, cwd)).decision, command).not.toBe('allow');
    },
  };
}

/**
 * For a test file: a pipeline with its own state for each test (made before it, after the set-up
 * registered earlier; closed after it), and the shell calls judged through it in `cwd()`.
 */
export function shellCallsWithFreshPipeline(cwd: () => string, intent: string) {
  let current: Pipeline | undefined;
  beforeEach(async () => {
    current = await pipelineWithOwnState();
  });
  afterEach(() => {
    current?.close();
  });
  const pipeline = (): Pipeline => {
    if (current === undefined) throw new Error('the pipeline exists only inside a test');
    return current;
  };
  return { pipeline, ...shellCalls(pipeline, cwd, intent) };
}

/**
 * Before each test, a running process whose command line holds `password`, as a database
 * client's often does (`psql postgresql://app:PASSWORD@db/x`); killed after it, or by `stop`.
 */
export function passwordInACommandLine(password: string): { stop(): void } {
  let client: ChildProcess | undefined;
  beforeEach(() => {
    client = spawn('sh', ['-c', 'sleep 60', 'psql', `postgresql://app:${password}@db/x`], {
      stdio: 'ignore',
    });
  });
  afterEach(() => {
    client?.kill();
  });
  return { stop: () => client?.kill() };
}

/** A TCP listener on loopback that counts connections and answers each with `reply`. */
export async function countingListener(reply: string) {
  let connections = 0;
  const listener = createServer((socket: Socket) => {
    connections += 1;
    socket.on('error', () => socket.destroy());
    socket.end(reply);
  }).listen(0, '127.0.0.1');
  await once(listener, 'listening');
  const address = listener.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : 0,
    connections: () => connections,
    close: () => listener.close(),
  };
}
