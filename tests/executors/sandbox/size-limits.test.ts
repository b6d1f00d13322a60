// Size limits for real (issue 6, red team): a call without a card writes no file past
// sandbox.uncarded_max_file_bytes (RLIMIT_FSIZE through prlimit), and every call's private
// /tmp and /dev/shm are tmpfs of sandbox.tmp_size_bytes. Limits of a few MiB keep it small.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ShellRequest } from '../../../executors/ops/shell-ops.ts';
import { buildBwrapArgs, defaultPrlimitPath } from '../../../executors/sandbox/bwrap-args.ts';
import { bashWords } from '../../../executors/sandbox/command-text.ts';
import { createBwrapShellOps } from '../../../executors/sandbox/bwrap.ts';
import { commandEnv, shellExec } from '../../../executors/shell-exec.ts';
import { ConfigError, SandboxUnavailable } from '../../../runtime/errors.ts';
import { defaultConfig, parseConfig } from '../../../runtime/config.ts';
import { makeContext, makeTempDir, tierGrant } from '../make-context.ts';
import { call, pipelineWith } from '../../pipeline/pipeline-helpers.ts';

const MiB = 1024 * 1024;
const limit = 2 * MiB;
const tmpSize = 3 * MiB;
const sandbox = { uncarded_max_file_bytes: limit, tmp_size_bytes: tmpSize };

/** A workspace and a context as the policy hands it over: uncarded (only `work` writable) or carded. */
async function workspace(carded = false) {
  const work = await makeTempDir('ws-');
  const base = await makeContext({ roots: { write: [work] }, sandbox });
  return { work, ctx: carded ? base : { ...base, grant: tierGrant([work]) } };
}

async function sizeOf(path: string): Promise<number> {
  return (await stat(path)).size;
}

const limitNote = new RegExp(
  `${String(limit)}-byte limit for calls without approval .*request_approval: true`,
);

describe('config', () => {
  it('defaults to 256 MiB per uncarded file and 512 MiB per private tmpfs', () => {
    expect(defaultConfig().sandbox).toMatchObject({
      uncarded_max_file_bytes: 256 * MiB,
      tmp_size_bytes: 512 * MiB,
    });
  });

  it('names the field and the fix for a size that is not a positive whole number', () => {
    for (const [key, value] of [
      ['uncarded_max_file_bytes', 0],
      ['tmp_size_bytes', -1],
      ['tmp_size_bytes', 1.5],
      ['uncarded_max_file_bytes', '1M'],
    ] as const) {
      expect(() => parseConfig({ sandbox: { [key]: value } })).toThrow(ConfigError);
      expect(() => parseConfig({ sandbox: { [key]: value } })).toThrow(
        new RegExp(`sandbox\\.${key}: .*Fix: `),
      );
    }
    expect(() => parseConfig({ sandbox: { tmp_size_bytes: 0 } })).toThrow(/at least 1/);
  });
});

describe('bwrap argv', () => {
  const request: ShellRequest = {
    command: 'dd if=/dev/zero of=x',
    args: ['--', '-c'],
    cwd: '/home/ana/ws',
    timeoutMs: 1000,
    outputCapBytes: 1000,
    signal: new AbortController().signal,
    writableRoots: ['/home/ana/ws'],
    network: false,
    env: {},
  };

  it('sizes /tmp and a sticky /dev/shm over the one --dev makes, and runs bash under prlimit', () => {
    const argv = buildBwrapArgs({ ...request, maxFileBytes: 5, tmpSizeBytes: 7 }, '/home/ana');
    expect(argv.join(' ')).toContain('--size 7 --tmpfs /tmp');
    expect(argv.join(' ')).toContain('--dev /dev');
    expect(argv.indexOf('/dev/shm')).toBeGreaterThan(argv.indexOf('--dev'));
    expect(argv.join(' ')).toContain('--perms 01777 --size 7 --tmpfs /dev/shm');
    expect(argv.slice(-11)).toEqual([
      '--chdir',
      '/home/ana/ws',
      defaultPrlimitPath,
      '--fsize=5:5',
      '--',
      'bash',
      ...bashWords(['--', '-c']),
    ]);
  });

  it('adds neither a size nor prlimit to a request that asks for none', () => {
    const argv = buildBwrapArgs(request, '/home/ana');
    expect(argv).not.toContain('--size');
    expect(argv).not.toContain('/dev/shm');
    expect(argv).not.toContain(defaultPrlimitPath);
    expect(argv.slice(-8)).toEqual(['--chdir', '/home/ana/ws', 'bash', ...bashWords(['--', '-c'])]);
  });
});

describe('a call without a card writes no file past the limit', () => {
  it('stops dd of /dev/zero at the limit and says how to ask', async () => {
    const { work, ctx } = await workspace();
    const result = await shellExec.run(
      { command: 'dd if=/dev/zero of=big.img bs=1M count=8', cwd: work },
      ctx,
    );
    expect(result.exit_code).not.toBe(0);
    expect(await sizeOf(join(work, 'big.img'))).toBe(limit);
    expect(result).toMatchObject({ note: expect.stringMatching(limitNote) as unknown });
  });

  it('stops cat /dev/zero > big (a redirect bash opens) at the limit', async () => {
    const { work, ctx } = await workspace();
    const result = await shellExec.run({ command: 'cat /dev/zero > big', cwd: work }, ctx);
    expect(result.exit_code).not.toBe(0);
    expect(await sizeOf(join(work, 'big'))).toBe(limit);
    expect(result).toMatchObject({ note: expect.stringMatching(limitNote) as unknown });
  });

  it('covers /dev/shm, a tmpfs in RAM: the per-file limit holds there too', async () => {
    const { work, ctx } = await workspace();
    const result = await shellExec.run(
      {
        command: 'dd if=/dev/urandom of=/dev/shm/x bs=1M count=8; stat -c %s /dev/shm/x',
        cwd: work,
      },
      ctx,
    );
    expect(result.stdout.trim()).toBe(String(limit));
    expect(result.stderr).toMatch(/File size limit exceeded/);
    expect(result).toMatchObject({ note: expect.stringMatching(limitNote) as unknown });
  });

  it('gives EFBIG (File too large) to a writer that ignores SIGXFSZ, and a note for it', async () => {
    const { work, ctx } = await workspace();
    const result = await shellExec.run(
      {
        command: "trap '' XFSZ; dd if=/dev/zero of=big bs=1M count=8; truncate -s 9M sparse",
        cwd: work,
      },
      ctx,
    );
    expect(result.stderr).toMatch(/File too large/);
    expect(await sizeOf(join(work, 'big'))).toBe(limit);
    expect(await sizeOf(join(work, 'sparse'))).toBe(0);
    expect(result).toMatchObject({ note: expect.stringMatching(limitNote) as unknown });
  });

  it('cannot raise its own limit: no capability is left to lift the hard limit', async () => {
    const { work, ctx } = await workspace();
    const result = await shellExec.run(
      {
        command:
          'ulimit -f unlimited; prlimit --fsize=unlimited -- head -c 3M /dev/zero > a; head -c 3M /dev/zero > b',
        cwd: work,
      },
      ctx,
    );
    expect(result.stderr).toMatch(/ulimit: file size: cannot modify limit/);
    expect(await sizeOf(join(work, 'a'))).toBe(0);
    expect(await sizeOf(join(work, 'b'))).toBe(limit);
  });

  it('passes the command text and positional args byte-identical through prlimit', async () => {
    const { work, ctx } = await workspace();
    const args = ['--fsize=1', '-c', 'a b', '--', '$0 "x"'];
    const result = await shellExec.run(
      { command: `printf '[%s]\\n' "$0" "$@"; ulimit -f`, args, cwd: work },
      ctx,
    );
    expect(result.exit_code).toBe(0);
    const kib = String(limit / 1024);
    expect(result.stdout).toBe(`[bash]\n${args.map((arg) => `[${arg}]\n`).join('')}${kib}\n`);
  });

  it('leaves a call a person approved unlimited per file', async () => {
    const { work, ctx } = await workspace(true);
    const result = await shellExec.run(
      { command: 'dd if=/dev/zero of=big.img bs=1M count=3 status=none', cwd: work },
      ctx,
    );
    expect(result).toMatchObject({ exit_code: 0, stderr: '' });
    expect(result).not.toHaveProperty('note');
    expect(await sizeOf(join(work, 'big.img'))).toBe(3 * MiB);
  });
});

describe("the red team's commands, decided and run by the real pipeline", () => {
  it('allows them without a card, and each stops at the limit', async () => {
    const work = await makeTempDir('ws-');
    const pipeline = await pipelineWith({ roots: { write: [work] }, sandbox });
    try {
      // The file each writes in the workspace; /dev/shm dies with the sandbox (checked above).
      for (const [command, file] of [
        ['dd if=/dev/zero of=big.img bs=1M', 'big.img'],
        ['cat /dev/zero > big', 'big'],
        ['dd if=/dev/urandom of=/dev/shm/x bs=1M', null],
      ] as const) {
        const args = { command, cwd: work };
        const outcome = await pipeline.evaluate(call('shell_exec', args, 'make a scratch file'));
        expect(outcome, command).toMatchObject({
          decision: 'allow',
          reason: expect.stringMatching(/^workspace: /),
        });
        const ran = await pipeline.invoke(outcome, new AbortController().signal);
        expect(ran, command).toMatchObject({
          ok: true,
          result: { note: expect.stringMatching(limitNote) as unknown },
        });
        if (file !== null) expect(await sizeOf(join(work, file))).toBe(limit);
      }
    } finally {
      pipeline.close();
    }
  });
});

describe('every call gets a sized private /tmp and /dev/shm', () => {
  it('sizes both tmpfs, and a full one gets a note naming the setting', async () => {
    const { work, ctx } = await workspace(true);
    const result = await shellExec.run(
      {
        command:
          'df -B1 --output=size /tmp /dev/shm | tail -n +2; for i in 1 2; do head -c 2M /dev/zero > /tmp/f$i; done; stat -c %s /tmp/f1 /tmp/f2',
        cwd: work,
      },
      ctx,
    );
    const lines = result.stdout.trim().split('\n');
    expect(lines.slice(0, 2).map((line) => Number(line.trim()))).toEqual([tmpSize, tmpSize]);
    expect(result.stderr).toMatch(/No space left on device/);
    const written = lines.slice(2).map(Number);
    expect(written[0]).toBe(2 * MiB);
    expect(written[1]).toBeLessThan(2 * MiB);
    expect(result).toMatchObject({
      note: expect.stringMatching(
        /at most 3145728 bytes each \(config sandbox\.tmp_size_bytes\)/,
      ) as unknown,
    });
    expect(result).not.toMatchObject({
      note: expect.stringMatching(/request_approval/) as unknown,
    });
  });
});

describe('prlimit missing', () => {
  const request = (cwd: string, maxFileBytes?: number): ShellRequest => ({
    command: 'echo ran',
    args: [],
    cwd,
    timeoutMs: 10_000,
    outputCapBytes: 4096,
    signal: new AbortController().signal,
    writableRoots: [cwd],
    network: false,
    env: commandEnv(process.env),
    ...(maxFileBytes === undefined ? {} : { maxFileBytes }),
  });

  it('refuses a size-limited call with install advice, and still runs one without a limit', async () => {
    const work = await makeTempDir('ws-');
    const ops = createBwrapShellOps({ prlimitPath: join(work, 'no-prlimit') });
    await expect(ops.run(request(work, limit))).rejects.toThrow(SandboxUnavailable);
    await expect(ops.run(request(work, limit))).rejects.toThrow(/apt-get install util-linux/);
    expect(await ops.run(request(work))).toMatchObject({ stdout: 'ran\n', exit_code: 0 });
  });
});
