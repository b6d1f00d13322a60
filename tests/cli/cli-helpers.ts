// Runs the real `custode` bin as a child process, with the test file's HOME and XDG dirs.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const bin = join(import.meta.dirname, '../../runtime/cli/custode.mjs');

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Spawn `custode ...args` with `input` on stdin; resolves when it exits. */
export function runCli(
  args: readonly string[],
  input: string,
  env: NodeJS.ProcessEnv = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}
