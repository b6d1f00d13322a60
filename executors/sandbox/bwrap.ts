// ShellOps inside bubblewrap. The binary path is injectable (tests simulate a host without
// it); when bwrap is missing or cannot build a sandbox, run() refuses with install advice.
import { access, constants } from 'node:fs/promises';
import { InvalidArguments, SandboxUnavailable } from '../../runtime/errors.ts';
import { homeDir } from '../../runtime/paths.ts';
import type { ShellOps, ShellRequest } from '../ops/shell-ops.ts';
import { buildBwrapArgs, defaultPrlimitPath, hiddenByPrivateTmp } from './bwrap-args.ts';
import { encodeWords, pipedBashWords } from './command-text.ts';
import {
  createPrestartPool,
  wordsPipe,
  type PrestartStats,
  type SandboxProfile,
} from './prestart-pool.ts';
import { finishLimited, stopProcess } from './run-process.ts';
import {
  credentialFileMasks,
  findSecretMasks,
  hostSocketMasks,
  startupFileMasks,
} from './secret-masks.ts';
import { SECCOMP_FD, unixSocketFilter } from './unix-socket-filter.ts';

/** Where distributions install bwrap. */
export const defaultBwrapPath = '/usr/bin/bwrap';

const installAdvice =
  'Install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora/RHEL: dnf install bubblewrap), or set sandbox.mode: off in the config to run commands unsandboxed.';

/** True when `bwrapPath` is executable and can actually start a minimal sandbox here. */
export async function bwrapAvailable(bwrapPath: string = defaultBwrapPath): Promise<boolean> {
  return (await probeBwrap(bwrapPath)) === undefined;
}

/** Undefined when bwrap works, else why not. */
async function probeBwrap(bwrapPath: string): Promise<string | undefined> {
  try {
    await access(bwrapPath, constants.X_OK);
  } catch {
    return `bubblewrap was not found at ${bwrapPath}`;
  }
  return new Promise((resolve) => {
    process
      .getBuiltinModule('node:child_process')
      .execFile(
        bwrapPath,
        ['--unshare-all', '--cap-drop', 'ALL', '--ro-bind', '/', '/', 'true'],
        { timeout: 10_000 },
        (error, _stdout, stderr) => {
          resolve(
            error === null
              ? undefined
              : `bubblewrap at ${bwrapPath} cannot create a sandbox: ${stderr === '' ? error.message : stderr}`,
          );
        },
      );
  });
}

/** Undefined when prlimit is executable, else why a size-limited call cannot run. */
async function probePrlimit(prlimitPath: string): Promise<string | undefined> {
  try {
    await access(prlimitPath, constants.X_OK);
    return undefined;
  } catch {
    return `prlimit was not found at ${prlimitPath}; it limits the size of the files a call without approval writes. Install util-linux (Debian/Ubuntu: apt-get install util-linux; Fedora/RHEL: dnf install util-linux)`;
  }
}

/** Every part of a request that shapes its sandbox, and none that a call alone has. */
function slotOf(request: ShellRequest): string {
  return JSON.stringify([
    request.cwd,
    request.writableRoots,
    request.visibleRoots,
    request.hideHostSockets,
    request.readOnlyWithin,
    request.codeView,
    request.network,
    request.hostProcesses,
    request.maxFileBytes,
    request.maxProcesses,
    request.tmpSizeBytes,
    request.env,
  ]);
}

/** The bubblewrap ShellOps, with what its pre-started sandboxes did (prestart-pool.ts). */
export interface BwrapShellOps extends ShellOps {
  readonly prestarted: Readonly<PrestartStats>;
  /** Resolves once every pre-started sandbox has started (the bench times calls after it). */
  prestartSettled(): Promise<void>;
  /** Kill every sandbox these ops started, waiting or running, and start no more (closing). */
  close(): void;
}

/**
 * ShellOps that runs every command in a fresh bubblewrap sandbox; results say sandbox: 'bwrap'.
 * A request with maxFileBytes runs under prlimit, and refuses when prlimit is missing. With
 * `prestart`, the next sandbox for a profile is started when a call ends and waits for the next
 * call with exactly that profile (prestart-pool.ts); a daemon asks for it, a one-shot CLI does not.
 */
export function createBwrapShellOps(
  options: { bwrapPath?: string; prlimitPath?: string; prestart?: boolean } = {},
): BwrapShellOps {
  const bwrapPath = options.bwrapPath ?? defaultBwrapPath;
  const prlimitPath = options.prlimitPath ?? defaultPrlimitPath;
  const pool = createPrestartPool({ prestart: options.prestart ?? false });
  let probed: Promise<string | undefined> | undefined;
  return {
    kind: 'bwrap',
    prestarted: pool.stats,
    prestartSettled: () => pool.settled(),
    close: () => pool.close(),
    async run(request) {
      probed ??= probeBwrap(bwrapPath);
      const problem = await probed;
      // Only success is remembered: installing bubblewrap takes effect without a restart.
      if (problem !== undefined) probed = undefined;
      if (problem !== undefined) throw new SandboxUnavailable(`${problem}. ${installAdvice}`);
      if (
        hiddenByPrivateTmp(
          request.cwd,
          [...request.writableRoots, ...(request.visibleRoots ?? [])],
          homeDir(request.env),
        )
      ) {
        throw new InvalidArguments(
          `cwd ${request.cwd} is in the host /tmp, which the sandbox replaces with a private, empty /tmp; use a directory under a workspace root (roots.write)`,
        );
      }
      if (request.maxFileBytes !== undefined || request.maxProcesses !== undefined) {
        // Fail closed: without prlimit the call would run with no limit at all.
        const missing = await probePrlimit(prlimitPath);
        if (missing !== undefined) throw new SandboxUnavailable(missing);
      }
      const words = encodeWords(request.command, request.args);
      if (words === undefined) {
        throw new InvalidArguments(
          'the command or an argument holds a NUL byte, which bash cannot hold',
        );
      }
      // Code nobody reviewed: the credential files in its view now, besides those decided.
      const viewMasks = request.codeView === undefined ? [] : credentialFileMasks(request.codeView);
      if (viewMasks === null) {
        throw new InvalidArguments(
          'the directory this code would see has grown past what is checked for credential files before a run without approval; run it from a smaller directory, or call shell_exec again with request_approval: true',
        );
      }
      // A call no person approved connects to no unix socket, wherever it is.
      const seccomp = request.hideHostSockets === true ? unixSocketFilter() : undefined;
      // Built for every call from the masks found now: a waiting sandbox is used only if equal.
      const profile: SandboxProfile = {
        slot: slotOf(request),
        file: bwrapPath,
        argv: buildBwrapArgs(
          request,
          homeDir(request.env),
          [
            ...findSecretMasks(request.env),
            ...viewMasks,
            ...(request.hideHostSockets === true ? await hostSocketMasks(request.env) : []),
            ...(request.codeView === undefined ? [] : startupFileMasks(request.env)),
          ],
          prlimitPath,
          pipedBashWords(),
          seccomp === undefined ? undefined : SECCOMP_FD,
        ),
        cwd: request.cwd,
        env: request.env,
        ...(seccomp === undefined ? {} : { seccomp }),
      };
      request.signal.throwIfAborted();
      const started = (await pool.take(profile)) ?? pool.start(profile);
      // Aborted while a waiting sandbox came up: it is killed before it is told anything to run.
      if (request.signal.aborted) stopProcess(started);
      else wordsPipe(started)?.end(words);
      try {
        return await finishLimited(started, request, 'bwrap');
      } finally {
        pool.prepare(profile);
      }
    },
  };
}
