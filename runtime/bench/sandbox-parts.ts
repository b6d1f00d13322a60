// Where the sandbox's overhead goes, each part timed on its own in one round-robin run: how a
// process is started (execa, Node's spawn), the shell, bubblewrap's minimum, then a ladder of its
// flags up to the floor (namespaces, --dev, --proc, the private /tmp), each namespace alone, and
// Custode's own command line with and without its masks, and the work done before bwrap starts.
import { spawn } from 'node:child_process';
import { execa } from 'execa';
import type { ShellRequest } from '../../executors/ops/shell-ops.ts';
import { buildBwrapArgs, type SecretMask } from '../../executors/sandbox/bwrap-args.ts';
import { createBwrapShellOps, defaultBwrapPath } from '../../executors/sandbox/bwrap.ts';
import { findSecretMasks, hostSocketMasks } from '../../executors/sandbox/secret-masks.ts';
import { homeDir } from '../paths.ts';
import { median, roundRobinMedians } from './types.ts';

const runs = 40;
const warmUp = 3;

/** Run `file args` with Node's spawn to its close; fails on a non-zero exit so a broken run cannot look fast. */
function run(file: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const stderr: Buffer[] = [];
    child.stdout.resume();
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${file} exited ${String(code)}: ${Buffer.concat(stderr).toString()}`));
    });
  });
}

/** Run `file args` with no pipes, to its exit: what a run costs without waiting for its output to close. */
function runToExit(file: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => {
      resolve();
    });
  });
}

/** bwrap's minimum: the host's / read-only, nothing else. */
const minimal = ['--ro-bind', '/', '/'];

/** Each namespace alone, added to the minimum. */
const namespaces = ['user', 'pid', 'net', 'ipc', 'uts', 'cgroup'].map(
  (name) => `--unshare-${name}`,
);

/** From the minimum to the floor (what no sandbox worth the name goes without), a step at a time. */
const ladder: readonly (readonly string[])[] = [
  ['--unshare-all'],
  ['--die-with-parent', '--new-session', '--cap-drop', 'ALL'],
  ['--dev', '/dev'],
  ['--proc', '/proc'],
  ['--tmpfs', '/tmp'],
];

/** The minimum and the ladder's first `steps` steps. */
function climbed(steps: number): string[] {
  return [...minimal, ...ladder.slice(0, steps).flat()];
}

const ms = (value: number): string => `${value.toFixed(2)} ms`;
const plus = (value: number): string => `${value >= 0 ? '+' : ''}${value.toFixed(2)} ms`;

/** Median time (ms) of a step Custode takes before bwrap starts, over many calls. */
async function stepMedian(step: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 200; i += 1) {
    const start = performance.now();
    await step();
    times.push(performance.now() - start);
  }
  return median(times);
}

/**
 * The breakdown, as lines, and bwrap's floor over bare bash. `request` is the call the target
 * measures; `uncarded` the same call as a tier runs it without a card.
 */
export async function overheadParts(
  request: ShellRequest,
  uncarded: ShellRequest,
): Promise<{ lines: string[]; floorOverBash: number }> {
  const env = request.env;
  const home = homeDir(env);
  const masks = findSecretMasks(env);
  const dirMasks = masks.filter((mask) => mask.kind === 'dir');
  const fileMasks = masks.filter((mask) => mask.kind === 'file');
  const uncardedMasks: SecretMask[] = [...masks, ...(await hostSocketMasks(env))];
  const bwrap = (args: readonly string[]) => () => run(defaultBwrapPath, args, env);
  const shellOps = createBwrapShellOps();
  const custode = (subset: readonly SecretMask[]) => bwrap(buildBwrapArgs(request, home, subset));
  const tasks: Record<string, () => Promise<unknown>> = {
    'execa true': () => execa('true', [], { env, extendEnv: false, reject: false }),
    'spawn true': () => run('true', [], env),
    'sh -c true': () => run('sh', ['-c', 'true'], env),
    'bash -c true': () => run('bash', ['-c', 'true'], env),
    ...Object.fromEntries(
      ladder.map((_, step) => [`ladder ${String(step)}`, bwrap([...climbed(step), 'true'])]),
    ),
    floor: bwrap([...climbed(ladder.length), 'true']),
    'floor bash': bwrap([...climbed(ladder.length), 'bash', '-c', 'true']),
    ...Object.fromEntries(namespaces.map((flag) => [flag, bwrap([...minimal, flag, 'true'])])),
    'no masks': custode([]),
    'dir masks': custode(dirMasks),
    'file masks': custode(fileMasks),
    'every mask': custode(masks),
    'shell ops': () => shellOps.run(request),
    'every mask, to exit': () =>
      runToExit(defaultBwrapPath, buildBwrapArgs(request, home, masks), env),
    uncarded: bwrap(buildBwrapArgs(uncarded, home, uncardedMasks)),
  };
  const medians = await roundRobinMedians(tasks, runs, warmUp);
  const at = (name: string): number => medians[name] ?? Number.NaN;
  const over = (name: string, base: string): string => plus(at(name) - at(base));
  const scan = await stepMedian(() => findSecretMasks(env));
  const build = await stepMedian(() => buildBwrapArgs(request, home, masks));
  const perMask = (name: string, count: number): string =>
    count === 0 ? 'none here' : `${plus((at(name) - at('no masks')) / count)} each`;
  const floorOverBash = at('floor bash') - at('bash -c true');
  const lines = [
    `where it goes (wall medians of ${String(runs)} round-robin runs of each part, started with Node's spawn unless said):`,
    `  starting a process: execa true ${ms(at('execa true'))}, spawn true ${ms(at('spawn true'))}: execa adds ${over('execa true', 'spawn true')}`,
    `  the shell: sh -c true ${ms(at('sh -c true'))}, bash -c true ${ms(at('bash -c true'))} (${over('bash -c true', 'sh -c true')})`,
    `  bwrap minimal (${minimal.join(' ')} true) ${ms(at('ladder 0'))}, ${over('ladder 0', 'spawn true')} over spawn true; then, step by step:`,
    ...ladder.map((flags, step) => {
      const name = step + 1 < ladder.length ? `ladder ${String(step + 1)}` : 'floor';
      return `    + ${flags.join(' ').padEnd(46)} ${over(name, `ladder ${String(step)}`)}`;
    }),
    `  each namespace alone over the minimum: ${namespaces.map((flag) => `${flag.slice('--unshare-'.length)} ${over(flag, 'ladder 0')}`).join(', ')}`,
    `  bwrap's floor with bash -c true ${ms(at('floor bash'))}: ${plus(floorOverBash)} over bare bash -c true`,
    `  Custode's command line without masks (workspace bind, --chdir) ${over('no masks', 'floor bash')} over the floor`,
    `    ${String(dirMasks.length)} dir masks (--tmpfs) ${perMask('dir masks', dirMasks.length)}; ${String(fileMasks.length)} file masks (--ro-bind /dev/null) ${perMask('file masks', fileMasks.length)}`,
    `    every mask (${String(masks.length)}) ${ms(at('every mask'))}, ${over('every mask', 'no masks')}`,
    `    the same run to bwrap's exit, with no pipes to wait on: ${over('every mask, to exit', 'every mask')}`,
    `    the same call through Custode's ShellOps (the scan, the spawn and its limits): ${over('shell ops', 'every mask')} over that run`,
    `  an uncarded call's command line (prlimit, sized /tmp and /dev/shm, /run hidden) ${ms(at('uncarded'))}, ${over('uncarded', 'bash -c true')} over bare bash -c true`,
    `  before bwrap starts, per call: finding the stores to mask ${ms(scan)}, building the argument list ${ms(build)}`,
  ];
  return { lines, floorOverBash };
}
