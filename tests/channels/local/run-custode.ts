// Runs the real `custode` CLI in a child process with piped stdin and a fresh HOME.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cli = join(import.meta.dirname, '..', '..', '..', 'runtime', 'cli', 'custode.cjs');

/** A fresh, real HOME for one CLI run. */
export function freshHome(): string {
  return realpathSync(mkdtempSync(join(process.env.HOME ?? tmpdir(), 'custode-chat-')));
}

export interface RunningCustode {
  readonly child: ChildProcessWithoutNullStreams;
  readonly home: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process has ended. */
  readonly exited: Promise<number | null>;
}

/** Starts `custode <args>` in `home` with no model (offline); stdin stays open for the test. */
export function startCustode(
  args: string[],
  extraEnv: NodeJS.ProcessEnv = {},
  home: string = freshHome(),
  cwd: string = home,
): RunningCustode {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    USER: 'tester',
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_STATE_HOME: join(home, '.local/state'),
    // No model anywhere: a dead Ollama address keeps the probe local and fast.
    OLLAMA_HOST: 'http://127.0.0.1:9',
    ...extraEnv,
  };
  const child = spawn(process.execPath, [cli, ...args], {
    env,
    cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  });
  return { child, home, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Runs `custode <args>` with this whole stdin; resolves with its output and exit code. */
export async function runCustode(
  args: string[],
  input: string,
  extraEnv: NodeJS.ProcessEnv = {},
  home: string = freshHome(),
): Promise<{ code: number | null; stdout: string; stderr: string; home: string }> {
  const running = startCustode(args, extraEnv, home);
  running.child.stdin.end(input);
  const code = await running.exited;
  return { code, stdout: running.stdout(), stderr: running.stderr(), home };
}
