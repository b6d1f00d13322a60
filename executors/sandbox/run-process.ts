// One process run with the limits every ShellOps shares: a timeout, an output cap per
// stream and abort. The process leads its own session so a kill reaches everything it
// started (bare mode); under bubblewrap, killing bwrap tears down the whole pid namespace.
// Node's own spawn, not execa: it costs about 1 ms less per command (`custode bench sandbox`
// measures both), and nothing here needs execa's extras.
import type { ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { mapFsError } from '../fs-errors.ts';
import type { ShellRequest, ShellResult } from '../ops/shell-ops.ts';
import { SECCOMP_FD } from './unix-socket-filter.ts';

/** Process groups still running. A detached child outlives us unless we kill its group. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone: nothing left to kill.
  }
}

function trackGroup(pid: number): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const group of liveGroups) killGroup(group);
    });
  }
  liveGroups.add(pid);
}

interface Capture {
  chunks: Buffer[];
  size: number;
}

/** How a process ended: its exit code (null when a signal ended it), or why it never started. */
export type Ending = { exitCode: number | null } | { failedToStart: Error };

function ending(subprocess: ChildProcess): Promise<Ending> {
  return new Promise((resolve) => {
    // 'close' comes once the process exited and its stdout and stderr are closed.
    subprocess.once('close', (exitCode: number | null) => {
      resolve({ exitCode });
    });
    // A spawn failure (missing binary or cwd) comes as 'error', with no pid.
    subprocess.on('error', (error) => {
      if (subprocess.pid === undefined) resolve({ failedToStart: error });
    });
  });
}

/** A process started and not yet given its limits (a pre-started sandbox waits like this). */
export interface StartedProcess {
  readonly subprocess: ChildProcess;
  readonly file: string;
  readonly cwd: string;
  readonly ended: Promise<Ending>;
}

/**
 * Spawn `file argv` as the leader of its own process group, stdout and stderr piped (read once
 * the limits are set, in finishLimited; until then they wait in the pipe). `wordsPipe` adds a
 * socket on fd 3 (command-text.ts: pipedBashWords); `seccomp` is written to fd 4, where bwrap
 * reads its filter (--seccomp 4) before it starts anything.
 */
export function startProcess(
  file: string,
  argv: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; wordsPipe?: boolean; seccomp?: Buffer },
): StartedProcess {
  // node:child_process is loaded on the first run: a decision alone (`custode hook`) never spawns.
  const subprocess = process.getBuiltinModule('node:child_process').spawn(file, argv, {
    cwd: options.cwd,
    env: options.env,
    stdio: [
      'ignore',
      'pipe',
      'pipe',
      options.wordsPipe === true ? 'pipe' : 'ignore',
      options.seccomp === undefined ? 'ignore' : 'pipe',
    ],
    detached: true,
  });
  if (options.seccomp !== undefined) {
    const filter = subprocess.stdio[SECCOMP_FD] as Writable | null;
    // A bwrap that failed to start is its result's business, not an uncaught error.
    filter?.on('error', () => undefined).end(options.seccomp);
  }
  const ended = ending(subprocess);
  if (subprocess.pid !== undefined) trackGroup(subprocess.pid);
  return { subprocess, file, cwd: options.cwd, ended };
}

/** Kill a started process and everything in its group (a discarded pre-started sandbox). */
export function stopProcess(started: StartedProcess): void {
  const { pid } = started.subprocess;
  if (pid === undefined) return;
  killGroup(pid);
  liveGroups.delete(pid);
}

/** Run `file argv` under the request's limits; timeout and cap are flags, an abort rejects. */
export async function runLimited(
  file: string,
  argv: readonly string[],
  request: ShellRequest,
  sandbox: ShellResult['sandbox'],
): Promise<ShellResult> {
  request.signal.throwIfAborted();
  return finishLimited(
    startProcess(file, argv, { cwd: request.cwd, env: request.env }),
    request,
    sandbox,
  );
}

/** Wait for a started process under the request's limits (timeout, output cap, abort). */
export async function finishLimited(
  started: StartedProcess,
  request: ShellRequest,
  sandbox: ShellResult['sandbox'],
): Promise<ShellResult> {
  const { subprocess, ended } = started;
  let timedOut = false;
  let truncated = false;
  const { pid } = subprocess;
  const killAll = (): void => {
    if (pid !== undefined) killGroup(pid);
  };
  const capture = (stream: Readable | null): Capture => {
    const out: Capture = { chunks: [], size: 0 };
    stream?.on('data', (chunk: Buffer) => {
      const room = request.outputCapBytes - out.size;
      if (room <= 0) return;
      if (chunk.length > room) {
        truncated = true;
        killAll();
      }
      const kept = chunk.subarray(0, room);
      out.chunks.push(kept);
      out.size += kept.length;
    });
    return out;
  };
  const stdout = capture(subprocess.stdout);
  const stderr = capture(subprocess.stderr);
  const timer = setTimeout(() => {
    timedOut = true;
    killAll();
  }, request.timeoutMs);
  request.signal.addEventListener('abort', killAll, { once: true });
  if (request.signal.aborted) killAll();
  try {
    const result = await ended;
    request.signal.throwIfAborted();
    if ('failedToStart' in result) {
      // It never ran (missing binary or cwd): an error, not a result the model should read.
      throw mapFsError(result.failedToStart, `${started.file} (cwd ${started.cwd})`);
    }
    return {
      stdout: Buffer.concat(stdout.chunks).toString('utf8'),
      stderr: Buffer.concat(stderr.chunks).toString('utf8'),
      exit_code: result.exitCode,
      timed_out: timedOut,
      truncated,
      sandbox,
    };
  } finally {
    if (pid !== undefined) {
      // Whatever the command left in its group (a background job) does not outlive the call.
      killGroup(pid);
      liveGroups.delete(pid);
    }
    clearTimeout(timer);
    request.signal.removeEventListener('abort', killAll);
  }
}
