// One process run with the limits every ShellOps shares: a timeout, an output cap per
// stream and abort. The process leads its own session so a kill reaches everything it
// started (bare mode); under bubblewrap, killing bwrap tears down the whole pid namespace.
import type { Readable } from 'node:stream';
import { mapFsError } from '../fs-errors.ts';
import type { ShellRequest, ShellResult } from '../ops/shell-ops.ts';

/** Process groups still running. A detached child escapes execa's exit cleanup, so we do it. */
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

/** Run `file argv` under the request's limits; timeout and cap are flags, an abort rejects. */
export async function runLimited(
  file: string,
  argv: readonly string[],
  request: ShellRequest,
  sandbox: ShellResult['sandbox'],
): Promise<ShellResult> {
  // Loaded on the first run, not at start: a decision (`custode hook`, `check`) runs nothing.
  const { execa } = await import('execa');
  request.signal.throwIfAborted();
  const subprocess = execa(file, argv, {
    cwd: request.cwd,
    env: request.env,
    extendEnv: false,
    stdin: 'ignore',
    buffer: false,
    reject: false,
    detached: true,
  });
  let timedOut = false;
  let truncated = false;
  const { pid } = subprocess;
  if (pid !== undefined) trackGroup(pid);
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
  try {
    const result = await subprocess;
    request.signal.throwIfAborted();
    if (result.exitCode === undefined && result.signal === undefined) {
      // It never ran (missing binary or cwd): an error, not a result the model should read.
      throw mapFsError(result.cause, `${file} (cwd ${request.cwd})`);
    }
    return {
      stdout: Buffer.concat(stdout.chunks).toString('utf8'),
      stderr: Buffer.concat(stderr.chunks).toString('utf8'),
      exit_code: result.exitCode ?? null,
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
