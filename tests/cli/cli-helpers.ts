// Runs the real `custode` bin as a child process, with the test file's HOME and XDG dirs.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const bin = join(import.meta.dirname, '../../runtime/cli/custode.cjs');

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Spawn `custode ...args` (or another copy of the bin) with `input` on stdin; resolves when it exits. */
export function runCli(
  args: readonly string[],
  input: string,
  env: NodeJS.ProcessEnv = {},
  script = bin,
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
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
