// Runs the real `custode` CLI in a child process with piped stdin and a fresh HOME.
import { spawn } from 'node:child_process';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cli = join(import.meta.dirname, '..', '..', '..', 'runtime', 'cli', 'custode.mjs');

/** Runs `custode <args>` with this stdin in a fresh HOME; resolves with its output and exit code. */
export function runCustode(
  args: string[],
  input: string,
  extraEnv: NodeJS.ProcessEnv = {},
  home: string = realpathSync(mkdtempSync(join(tmpdir(), 'custode-chat-'))),
): Promise<{ code: number | null; stdout: string; stderr: string; home: string }> {
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
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env,
      cwd: home,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, home }));
    child.stdin.end(input);
  });
}
