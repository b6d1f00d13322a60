// Sandbox benchmark: what bubblewrap adds to one command. `true` runs through the real
// ShellOps (bash -c, same limits and env) in bwrap and bare, after a warm-up; the figure
// that matters is the median overhead (target: at most 5 ms).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ShellOps, ShellRequest } from '../../executors/ops/shell-ops.ts';
import { createBareShellOps } from '../../executors/sandbox/bare.ts';
import {
  bwrapAvailable,
  createBwrapShellOps,
  defaultBwrapPath,
} from '../../executors/sandbox/bwrap.ts';
import { commandEnv } from '../../executors/shell-exec.ts';
import { median, percentile, type BenchSection } from './types.ts';

const runs = 30;
const warmUp = 5;
const targetMs = 5;

/** Wall times (ms) of `runs` runs of the request after `warmUp` unmeasured ones; fails on a non-zero exit. */
async function time(ops: ShellOps, request: ShellRequest): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < warmUp + runs; i += 1) {
    const start = performance.now();
    const result = await ops.run(request);
    const elapsed = performance.now() - start;
    if (result.exit_code !== 0)
      throw new Error(`${ops.kind}: true exited ${String(result.exit_code)}: ${result.stderr}`);
    if (i >= warmUp) times.push(elapsed);
  }
  return times;
}

const ms = (value: number): string => `${value.toFixed(2)} ms`;

/** Median wall time of `true` in bubblewrap vs bare, and the overhead; skipped with the reason when bwrap is missing. */
export async function benchSandbox(): Promise<BenchSection> {
  const title = `sandbox: \`true\` through bubblewrap vs bare (${String(runs)} runs each after ${String(warmUp)} warm-up)`;
  if (!(await bwrapAvailable())) {
    return {
      title,
      lines: [
        `skipped: bubblewrap is not usable at ${defaultBwrapPath} (apt-get install bubblewrap / dnf install bubblewrap)`,
      ],
    };
  }
  const workspace = await mkdtemp(join(tmpdir(), 'custode-bench-sandbox-'));
  try {
    const request: ShellRequest = {
      command: 'true',
      args: [],
      cwd: workspace,
      timeoutMs: 10_000,
      outputCapBytes: 512 * 1024,
      signal: new AbortController().signal,
      writableRoots: [workspace],
      network: false,
      env: commandEnv(process.env),
    };
    const bare = await time(createBareShellOps(), request);
    const bwrap = await time(createBwrapShellOps(), request);
    const overhead = median(bwrap) - median(bare);
    return {
      title,
      lines: [
        `bare  median ${ms(median(bare))}  p90 ${ms(percentile(bare, 90))}`,
        `bwrap median ${ms(median(bwrap))}  p90 ${ms(percentile(bwrap, 90))}`,
        `overhead (median bwrap - median bare) ${ms(overhead)}  target <= ${String(targetMs)} ms: ${overhead <= targetMs ? 'met' : 'NOT met'}`,
      ],
    };
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}
