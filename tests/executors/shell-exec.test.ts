import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBareShellOps } from '../../executors/sandbox/bare.ts';
import { shellExec } from '../../executors/shell-exec.ts';
import {
  ExecTimeoutCeilingExceeded,
  InvalidArguments,
  NotFound,
  SandboxUnavailable,
} from '../../runtime/errors.ts';
import { fsRead } from '../../executors/fs-read.ts';
import { makeContext, makeTempDir } from './make-context.ts';
import { processesWith, waitFor } from './sandbox/processes.ts';

describe('shell_exec', () => {
  it('returns a non-zero exit as a result, with stdout and stderr, from the sandbox', async () => {
    const ctx = await makeContext();
    const result = await shellExec.run({ command: 'echo out; echo err >&2; exit 7' }, ctx);
    expect(result).toEqual({
      stdout: 'out\n',
      stderr: 'err\n',
      exit_code: 7,
      timed_out: false,
      truncated: false,
      sandbox: 'bwrap',
    });
  });

  it('passes args as positional parameters, never as shell text', async () => {
    const ctx = await makeContext();
    const result = await shellExec.run(
      { command: `printf '%s|' "$@"`, args: ['a b', '$(id)', ';rm'] },
      ctx,
    );
    expect(result.stdout).toBe('a b|$(id)|;rm|');
  });

  it('runs in cwd (~ expanded); a missing cwd is NotFound, a file InvalidArguments', async () => {
    const ctx = await makeContext();
    const dir = await makeTempDir();
    const name = dir.slice(dir.lastIndexOf('/') + 1);
    expect((await shellExec.run({ command: 'pwd', cwd: `~/${name}` }, ctx)).stdout).toBe(
      `${dir}\n`,
    );
    await expect(
      shellExec.run({ command: 'pwd', cwd: join(dir, 'none') }, ctx),
    ).rejects.toBeInstanceOf(NotFound);
    await writeFile(join(dir, 'f'), '');
    await expect(
      shellExec.run({ command: 'pwd', cwd: join(dir, 'f') }, ctx),
    ).rejects.toBeInstanceOf(InvalidArguments);
  });

  it('refuses a timeout above the ceiling before running anything', async () => {
    const ctx = await makeContext({ sandbox: { timeout_ceiling_ms: 1000 } });
    const dir = await makeTempDir();
    const marker = join(dir, 'ran');
    await expect(
      shellExec.run({ command: `touch ${marker}`, timeout_ms: 1001 }, ctx),
    ).rejects.toBeInstanceOf(ExecTimeoutCeilingExceeded);
    await expect(readFile(marker)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('hides API keys and tokens in the daemon env from the command', async () => {
    const ctx = await makeContext();
    const env = { ...ctx.env, OPENAI_API_KEY: 'sk-secret', TELEGRAM_BOT_TOKEN: '123:abc' };
    const result = await shellExec.run({ command: 'env' }, { ...ctx, env });
    expect(result.stdout).not.toContain('sk-secret');
    expect(result.stdout).not.toContain('123:abc');
    expect(result.stdout).toContain(`HOME=${ctx.env.HOME ?? ''}`);
  });

  it('flags a timeout and reports no exit code', async () => {
    const ctx = await makeContext();
    const result = await shellExec.run({ command: 'sleep 30', timeout_ms: 200 }, ctx);
    expect(result).toMatchObject({ timed_out: true, exit_code: null });
  });

  it('cuts output at the cap and flags it', async () => {
    const ctx = await makeContext({ sandbox: { output_cap_bytes: 1000 } });
    const result = await shellExec.run({ command: "head -c 100000 /dev/zero | tr '\\0' a" }, ctx);
    expect(result.truncated).toBe(true);
    expect(result.stdout).toBe('a'.repeat(1000));
  });

  it('refuses clearly when bubblewrap is missing, while file tools keep working', async () => {
    const ctx = await makeContext({}, { bwrapPath: '/nonexistent/bwrap' });
    const attempt = shellExec.run({ command: 'true' }, ctx);
    await expect(attempt).rejects.toBeInstanceOf(SandboxUnavailable);
    await expect(attempt).rejects.toThrow(/apt-get install bubblewrap.*dnf install bubblewrap/);
    const dir = await makeTempDir();
    await expect(fsRead.run({ path: dir }, ctx)).rejects.toBeInstanceOf(InvalidArguments);
  });

  it('runs bare with sandbox: off when the config says so, even without bubblewrap', async () => {
    const ctx = await makeContext(
      { sandbox: { mode: 'off' } },
      { bwrapPath: '/nonexistent/bwrap' },
    );
    const result = await shellExec.run({ command: 'echo hi' }, ctx);
    expect(result).toMatchObject({ stdout: 'hi\n', exit_code: 0, sandbox: 'off' });
  });

  it('kills the whole process group on timeout in bare mode (no orphan keeps the pipe)', async () => {
    const ctx = await makeContext();
    const ops = { ...ctx.ops, shell: createBareShellOps() };
    const result = await shellExec.run(
      { command: 'sleep 30 & wait; echo never', timeout_ms: 200 },
      { ...ctx, ops },
    );
    expect(result).toMatchObject({ timed_out: true, stdout: '', sandbox: 'off' });
  });

  it('leaves no background job behind after the call returns, in bare mode too', async () => {
    const ctx = await makeContext();
    const ops = { ...ctx.ops, shell: createBareShellOps() };
    const tag = `4545.${String(process.pid)}`;
    const result = await shellExec.run(
      { command: `sleep ${tag} >/dev/null 2>&1 & echo started` },
      { ...ctx, ops },
    );
    expect(result.stdout).toBe('started\n');
    await waitFor(async () => (await processesWith(tag)) === 0);
    expect(await processesWith(tag)).toBe(0);
  });
});
