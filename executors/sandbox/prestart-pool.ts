// Sandboxes started before their command is known, so a call does not wait for bubblewrap to
// build one (about 10 ms of namespaces and mounts here at best, far more under load). After a
// call ends, the next sandbox for the same profile is started and waits, its bash reading fd 3.
// Each sandbox runs one command and is gone: a pre-started one is never used twice. It is used
// only for a call whose bwrap command line, cwd and environment are byte-identical to the ones it
// was started with (the grant, the masks of the secret stores found now, the roots), and whose
// mounted places are still the same files (mount-identity.ts); any other is killed unused. At
// most one waits per profile, for a few recent profiles, for a while; bwrap dies with the daemon.
// Closing kills every sandbox the pool started, waiting, being taken or running a call, and the
// pool starts none after: nothing it started outlives it or holds the daemon's event loop open.
import type { Readable, Writable } from 'node:stream';
import { SandboxUnavailable } from '../../runtime/errors.ts';
import { mountIdentity } from './mount-identity.ts';
import { startProcess, stopProcess, type StartedProcess } from './run-process.ts';
import { WORDS_FD } from './command-text.ts';

/** What a sandbox is started with; two profiles are the same sandbox only when equal in every byte. */
export interface SandboxProfile {
  /**
   * The call it serves, apart from what is found at each call (the masks): one sandbox waits per
   * slot, and one waiting in the slot with any other profile is stale and killed.
   */
  readonly slot: string;
  readonly file: string;
  /** bwrap's argv, ending in pipedBashWords(): the command comes later on fd 3. */
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** The seccomp filter bwrap reads on fd 4 (argv says --seccomp 4), if any. */
  readonly seccomp?: Buffer;
}

/** How the pool served calls, for the bench and the tests. */
export interface PrestartStats {
  /** Calls run in a sandbox started before they came. */
  used: number;
  /** Pre-started sandboxes killed unused: another profile, places changed, dead, or idle too long. */
  discarded: number;
  /** Calls that started their sandbox themselves. */
  startedOnDemand: number;
}

export interface PrestartPool {
  /**
   * Start `profile`'s sandbox now, for a call that came with nothing waiting for it; throws
   * SandboxUnavailable once the pool is closed.
   */
  start(profile: SandboxProfile): StartedProcess;
  /**
   * The waiting sandbox for exactly `profile`, out of the pool, once it is ready and only if its
   * places are unchanged and the pool still open; undefined otherwise (one that does not fit is
   * killed).
   */
  take(profile: SandboxProfile): Promise<StartedProcess | undefined>;
  /** Start the next sandbox for `profile` to wait for a call (after one ended). */
  prepare(profile: SandboxProfile): void;
  /** Resolves once every waiting sandbox has started (or failed to). */
  settled(): Promise<void>;
  /**
   * Kill every sandbox this pool started, waiting or running a call, and start no more (the
   * daemon is closing): a call in flight ends as one killed, a later one is refused.
   */
  close(): void;
  readonly stats: Readonly<PrestartStats>;
}

interface Waiting {
  readonly key: string;
  readonly started: StartedProcess;
  /** True once bash inside said it is ready with the places still as they were before the start. */
  readonly ready: Promise<boolean>;
  /** The places before it started. */
  readonly identity: string;
  readonly timer: NodeJS.Timeout;
}

function keyOf(profile: SandboxProfile): string {
  const env = Object.entries(profile.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([profile.slot, profile.file, profile.argv, profile.cwd, env]);
}

/** fd 3 of a sandbox started from a profile: its ready byte comes out, its words go in. */
export function wordsPipe(started: StartedProcess): (Readable & Writable) | undefined {
  return started.subprocess.stdio[WORDS_FD] as (Readable & Writable) | undefined;
}

function alive(started: StartedProcess): boolean {
  return started.subprocess.exitCode === null && started.subprocess.signalCode === null;
}

/** Hold (or stop holding) the daemon's event loop open for the process and its pipes. */
function holdOpen(started: StartedProcess, hold: boolean): void {
  const { subprocess } = started;
  for (const handle of [subprocess, ...subprocess.stdio]) {
    const counted = handle as { ref?: () => void; unref?: () => void } | null;
    if (hold) counted?.ref?.();
    else counted?.unref?.();
  }
}

/**
 * Kill a sandbox and close our ends of its pipes. Killed while it comes up, bwrap's outer process
 * can die before the inner one has asked to die with its parent (--die-with-parent is set there
 * after the fork), so the inner one and its bash live on, holding the other ends of the pipes:
 * those kept the daemon's event loop open for ever (a hang at exit). With our ends closed, the
 * bash waiting on fd 3 reads its end and exits, and nothing holds the loop.
 */
function abandon(started: StartedProcess): void {
  stopProcess(started);
  for (const stream of started.subprocess.stdio) stream?.destroy();
}

/** Resolves true at bash's ready byte if the places are still `identity`; false if it ends first. */
function readiness(
  started: StartedProcess,
  argv: readonly string[],
  identity: string,
): Promise<boolean> {
  const pipe = wordsPipe(started);
  return new Promise((resolve) => {
    if (pipe === undefined) {
      resolve(false);
      return;
    }
    // Mounts made while a place changed would mount the wrong file: compare again once made.
    pipe.once('data', () => resolve(mountIdentity(argv) === identity));
    pipe.on('error', () => resolve(false));
    pipe.once('end', () => resolve(false));
    started.subprocess.once('exit', () => resolve(false));
  });
}

/**
 * A pool of at most `maxProfiles` waiting sandboxes, one per profile, each killed after `idleMs`.
 * `prestart: false` keeps none: every call starts its own.
 */
export function createPrestartPool(
  options: { prestart?: boolean; maxProfiles?: number; idleMs?: number } = {},
): PrestartPool {
  const maxProfiles = options.maxProfiles ?? 4;
  const idleMs = options.idleMs ?? 60_000;
  const waiting = new Map<string, Waiting>();
  /** Every process started here and not yet ended, wherever it is: close kills them all. */
  const live = new Set<StartedProcess>();
  let closed = false;
  const stats: PrestartStats = { used: 0, discarded: 0, startedOnDemand: 0 };

  const spawn = (profile: SandboxProfile): StartedProcess => {
    if (closed) throw new SandboxUnavailable('The sandbox is closed: Custode is stopping.');
    const started = startProcess(profile.file, profile.argv, {
      cwd: profile.cwd,
      env: profile.env,
      wordsPipe: true,
      ...(profile.seccomp === undefined ? {} : { seccomp: profile.seccomp }),
    });
    live.add(started);
    void started.ended.then(() => live.delete(started));
    // A write to a sandbox that died is its result's business, not an uncaught error; the pipe is
    // read to its end, or the process's 'close' would never come.
    wordsPipe(started)
      ?.on('error', () => undefined)
      .resume();
    return started;
  };

  const discard = (key: string, entry: Waiting): void => {
    if (waiting.get(key) === entry) waiting.delete(key);
    clearTimeout(entry.timer);
    abandon(entry.started);
    stats.discarded += 1;
  };

  return {
    stats,
    start(profile) {
      const started = spawn(profile);
      stats.startedOnDemand += 1;
      return started;
    },
    async take(profile) {
      const entry = waiting.get(profile.slot);
      if (entry === undefined) return undefined;
      // Out of the pool before any wait: no other call can have it.
      waiting.delete(profile.slot);
      clearTimeout(entry.timer);
      const usable =
        entry.key === keyOf(profile) &&
        (await entry.ready) &&
        // Closed while it came up: close killed it, and a call now gets none.
        !closed &&
        alive(entry.started) &&
        mountIdentity(profile.argv) === entry.identity;
      if (!usable) {
        discard(profile.slot, entry);
        return undefined;
      }
      holdOpen(entry.started, true);
      stats.used += 1;
      return entry.started;
    },
    prepare(profile) {
      const key = profile.slot;
      if (options.prestart !== true || closed || waiting.has(key)) return;
      const identity = mountIdentity(profile.argv);
      if (identity === undefined) return;
      // Held open while it starts (a wait for it keeps the loop alive), not once it only waits.
      const started = spawn(profile);
      const entry: Waiting = {
        key: keyOf(profile),
        started,
        identity,
        ready: readiness(started, profile.argv, identity),
        timer: setTimeout(() => {
          discard(key, entry);
        }, idleMs).unref(),
      };
      waiting.set(key, entry);
      for (const [oldKey, old] of waiting) {
        if (waiting.size <= maxProfiles) break;
        discard(oldKey, old);
      }
      // One that died or came up with its places changed is not kept waiting.
      void entry.ready.then((ready) => {
        if (waiting.get(key) !== entry) return;
        if (ready) holdOpen(started, false);
        else discard(key, entry);
      });
    },
    async settled() {
      await Promise.all([...waiting.values()].map((entry) => entry.ready));
    },
    close() {
      closed = true;
      for (const [key, entry] of waiting) discard(key, entry);
      // Out of `waiting` but not ended: being taken (awaiting its ready byte) or running a call.
      for (const started of live) abandon(started);
      live.clear();
    },
  };
}
