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

/** A PreToolUse payload for `toolName` with `toolInput` in `cwd`, as Claude Code sends it. */
export function claudeCodePayload(
  toolName: string,
  toolInput: unknown,
  cwd: string,
  permissionMode = 'default',
): string {
  return JSON.stringify({
    session_id: 'abc123',
    transcript_path: join(process.env.HOME ?? '/nonexistent', '.claude', 'transcript.jsonl'),
    cwd,
    permission_mode: permissionMode,
    hook_event_name: 'PreToolUse',
    tool_name: toolName,
    tool_input: toolInput,
    tool_use_id: 'toolu_01',
  });
}

/**
 * What `custode hook claude-code` answers a real-format PreToolUse payload for `toolName` with
 * `toolInput` in `cwd`: its permissionDecision ('none' when it leaves the call to the agent) and
 * its stdout. The hook must exit 0 with a JSON body.
 */
export async function claudeCodeAnswer(
  toolName: string,
  toolInput: unknown,
  cwd: string,
): Promise<{ decision: string; text: string }> {
  const run = await runCli(['hook', 'claude-code'], claudeCodePayload(toolName, toolInput, cwd));
  if (run.code !== 0) throw new Error(`the hook exited ${String(run.code)}: ${run.stderr}`);
  const body = JSON.parse(run.stdout) as { hookSpecificOutput?: { permissionDecision?: string } };
  return { decision: body.hookSpecificOutput?.permissionDecision ?? 'none', text: run.stdout };
}
