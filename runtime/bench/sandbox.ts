// Sandbox benchmark: what bubblewrap adds to one command. `true` runs through the real
// ShellOps (bash -c, same limits and env) in bwrap and bare, interleaved, after a warm-up; the figure
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
import { overheadParts } from './sandbox-parts.ts';
import { median, percentile, verdict, type BenchSection } from './types.ts';

const runs = 30;
const warmUp = 5;
const targetMs = 5;

/** Wall time (ms) of one run; fails on a non-zero exit so a broken sandbox cannot look fast. */
async function timeOne(ops: ShellOps, request: ShellRequest): Promise<number> {
  const start = performance.now();
  const result = await ops.run(request);
  const elapsed = performance.now() - start;
  if (result.exit_code !== 0) {
    throw new Error(`${ops.kind}: true exited ${String(result.exit_code)}: ${result.stderr}`);
  }
  return elapsed;
}

/** Alternate bare and bwrap runs so load on the machine weighs on both alike. */
async function timeInterleaved(
  bareOps: ShellOps,
  bwrapOps: ShellOps,
  request: ShellRequest,
): Promise<{ bare: number[]; bwrap: number[]; differences: number[] }> {
  const out = { bare: [] as number[], bwrap: [] as number[], differences: [] as number[] };
  for (let i = 0; i < warmUp + runs; i += 1) {
    const bare = await timeOne(bareOps, request);
    const bwrap = await timeOne(bwrapOps, request);
    if (i < warmUp) continue;
    out.bare.push(bare);
    out.bwrap.push(bwrap);
    out.differences.push(bwrap - bare);
  }
  return out;
}

const ms = (value: number): string => `${value.toFixed(2)} ms`;

/** Median wall time of `true` in bubblewrap vs bare, and the overhead; skipped with the reason when bwrap is missing. */
export async function benchSandbox(): Promise<BenchSection> {
  const title = `sandbox: \`true\` through bubblewrap vs bare (${String(runs)} interleaved runs each after ${String(warmUp)} warm-up)`;
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
      // A throwaway HOME: the sandbox creates Custode's own dirs under HOME before masking them.
      env: commandEnv({ PATH: process.env.PATH, HOME: workspace }),
    };
    const { bare, bwrap, differences } = await timeInterleaved(
      createBareShellOps(),
      createBwrapShellOps(),
      request,
    );
    const overhead = median(bwrap) - median(bare);
    // The same call as a tier runs it without a card: under prlimit, sized tmpfs, /run hidden.
    const uncarded: ShellRequest = {
      ...request,
      visibleRoots: [workspace],
      hideRuntimeDirs: true,
      maxFileBytes: 256 * 1024 * 1024,
      tmpSizeBytes: 512 * 1024 * 1024,
    };
    const uncardedRuns = await timeInterleaved(
      createBareShellOps(),
      createBwrapShellOps(),
      uncarded,
    );
    const parts = await overheadParts(request, uncarded);
    return {
      title,
      lines: [
        `bare  median ${ms(median(bare))}  p90 ${ms(percentile(bare, 90))}`,
        `bwrap median ${ms(median(bwrap))}  p90 ${ms(percentile(bwrap, 90))}`,
        `paired overhead (median of bwrap - bare, run by run) ${ms(median(differences))}`,
        `overhead (median bwrap - median bare) ${ms(overhead)}  target <= ${String(targetMs)} ms: ${verdict(overhead <= targetMs)}`,
        `  the same call as run without a card (prlimit, sized /tmp and /dev/shm, /run hidden): overhead ${ms(median(uncardedRuns.bwrap) - median(uncardedRuns.bare))}`,
        ...parts.lines,
        parts.floorOverBash > targetMs
          ? `bubblewrap's floor alone is ${ms(parts.floorOverBash)} over bare bash here, above the ${String(targetMs)} ms target: no command line Custode builds can meet it on this machine now`
          : `bubblewrap's floor alone is ${ms(parts.floorOverBash)} over bare bash here, within the ${String(targetMs)} ms target`,
      ],
    };
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}
