// Sandbox benchmark: what bubblewrap adds to one command. `true` runs through the real
// ShellOps (bash -c, same limits and env) in bwrap and bare, interleaved, after a warm-up. The
// figure with the target (at most 5 ms) is what a daemon's call waits for in a sandbox started
// before it came; the cold figure (a call that starts its own bwrap) is printed beside it.
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

/**
 * Alternate bare and bwrap runs so load on the machine weighs on both alike. `beforeEach` runs
 * untimed before each bwrap run (waiting for its pre-started sandbox to be ready).
 */
async function timeInterleaved(
  bareOps: ShellOps,
  bwrapOps: ShellOps,
  request: ShellRequest,
  beforeEach: () => Promise<void> = async () => undefined,
): Promise<{ bare: number[]; bwrap: number[]; differences: number[] }> {
  const out = { bare: [] as number[], bwrap: [] as number[], differences: [] as number[] };
  for (let i = 0; i < warmUp + runs; i += 1) {
    await beforeEach();
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

/**
 * The same interleaved runs with the daemon's pre-started sandboxes: `ready` waits, untimed, until
 * the sandbox started after the last call is up (an agent's next call comes seconds later);
 * `backToBack` does not wait, so each call also waits for whatever of its sandbox's start is left.
 */
async function timePrestarted(
  request: ShellRequest,
  ready: boolean,
): Promise<{ median: number; bare: number; used: number; calls: number }> {
  const ops = createBwrapShellOps({ prestart: true });
  const timed = await timeInterleaved(createBareShellOps(), ops, request, async () => {
    if (ready) await ops.prestartSettled();
  }).finally(() => {
    // The sandbox started after the last call is killed, not left waiting.
    ops.close();
  });
  return {
    median: median(timed.bwrap),
    bare: median(timed.bare),
    used: ops.prestarted.used,
    calls: warmUp + runs,
  };
}

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
    const cold = median(bwrap) - median(bare);
    const prestarted = await timePrestarted(request, true);
    const backToBack = await timePrestarted(request, false);
    const overhead = prestarted.median - prestarted.bare;
    // The same call as a tier runs it without a card: under prlimit, sized tmpfs, /run hidden.
    const uncarded: ShellRequest = {
      ...request,
      visibleRoots: [workspace],
      hideHostSockets: true,
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
        `cold: each call starts its own bwrap (a one-shot CLI, or the first call of a profile in the daemon)`,
        `  bare  median ${ms(median(bare))}  p90 ${ms(percentile(bare, 90))}`,
        `  bwrap median ${ms(median(bwrap))}  p90 ${ms(percentile(bwrap, 90))}`,
        `  paired overhead (median of bwrap - bare, run by run) ${ms(median(differences))}`,
        `  overhead (median bwrap - median bare) ${ms(cold)}`,
        `pre-started (the daemon): the call runs in a fresh bwrap started for its profile after the previous call ended; timed from the call to its result, after that sandbox is up`,
        `  bwrap median ${ms(prestarted.median)} (bare ${ms(prestarted.bare)}); ${String(prestarted.used)} of ${String(prestarted.calls)} calls ran in a pre-started sandbox`,
        `  back to back (no pause between calls: each also waits for what is left of its sandbox's start): overhead ${ms(backToBack.median - backToBack.bare)}, ${String(backToBack.used)} of ${String(backToBack.calls)} pre-started`,
        `overhead of a call in a pre-started sandbox (median bwrap - median bare) ${ms(overhead)}  target <= ${String(targetMs)} ms: ${verdict(overhead <= targetMs)}`,
        `  the same call as run without a card (prlimit, sized /tmp and /dev/shm, /run hidden), cold: overhead ${ms(median(uncardedRuns.bwrap) - median(uncardedRuns.bare))}`,
        ...parts.lines,
        `bubblewrap's floor alone is ${ms(parts.floorOverBash)} over bare bash here: ${parts.floorOverBash > targetMs ? 'above' : 'within'} the ${String(targetMs)} ms target for a sandbox a call starts itself (cold)`,
      ],
    };
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}
