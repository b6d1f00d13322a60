// The bubblewrap command line, as a pure function of the request so it can be read and
// unit-tested: read-only root, fresh /dev /proc and private /tmp, the workspace roots
// writable, secret stores masked last (so no writable bind can uncover them), no network
// unless asked, and no capabilities (root inside could otherwise remount / read-write).
import type { ShellRequest } from '../ops/shell-ops.ts';
import { isUnder } from '../../runtime/vaglio/normalize-path.ts';
import { bashWords } from './command-text.ts';
import { codeViewPlaces, SYSTEM_PARTS } from './code-view-places.ts';

/** A secret store that exists on the host, masked by an empty tmpfs (dir) or /dev/null (file). */
export interface SecretMask {
  readonly path: string;
  /** dir: an empty tmpfs over it; file: /dev/null over it; public: the file itself, read-only, over a mask. */
  readonly kind: 'dir' | 'file' | 'public';
}

/**
 * True when `path` is in the host /tmp but no bind brings it into the sandbox, whose /tmp is
 * private and empty: a cwd there would not exist inside.
 */
export function hiddenByPrivateTmp(
  path: string,
  writableRoots: readonly string[],
  home: string,
): boolean {
  if (!isUnder(path, '/tmp')) return false;
  const visible = [home, ...writableRoots].filter((root) => root !== '/tmp');
  return !visible.some((root) => isUnder(root, '/tmp') && isUnder(path, root));
}

/** Roots inside the host /tmp that the private /tmp would hide (not /tmp itself, not in home). */
function rootsUnderTmp(roots: readonly string[], home: string): string[] {
  return [...new Set(roots)]
    .filter((root) => root !== '/tmp' && isUnder(root, '/tmp') && !isUnder(root, home))
    .sort((a, b) => a.length - b.length);
}

/** Where util-linux (Essential on Debian) installs prlimit, which sets limits bwrap has no flag for. */
export const defaultPrlimitPath = '/usr/bin/prlimit';

/** `--size N` for the next --tmpfs: a tmpfs lives in RAM and is half of it when unsized. */
function sized(bytes: number | undefined): string[] {
  return bytes === undefined ? [] : ['--size', String(bytes)];
}

/**
 * The prefix that runs bash under RLIMIT_FSIZE and RLIMIT_NPROC: prlimit sets the limits on
 * itself and execs the rest untouched (it stops parsing options at `--`), so the command text and
 * positional args reach bash byte-identical, and the file limit is exact to the byte (bash's
 * ulimit -f counts KiB). Soft and hard alike: no capability is left inside to raise a hard limit.
 * The process count is the sandbox's own: the kernel counts it per user namespace.
 */
function limits(request: ShellRequest, prlimit: string): string[] {
  const { maxFileBytes: bytes, maxProcesses: processes } = request;
  const options = [
    ...(bytes === undefined ? [] : [`--fsize=${String(bytes)}:${String(bytes)}`]),
    ...(processes === undefined ? [] : [`--nproc=${String(processes)}:${String(processes)}`]),
  ];
  return options.length === 0 ? [] : [prlimit, ...options, '--'];
}

/**
 * Every namespace of its own; the network shared when asked; the host's processes and sockets
 * in view (its pid and network namespaces) for a line that lists or signals them.
 */
function namespaces(request: ShellRequest): string[] {
  if (request.hostProcesses !== true)
    return ['--unshare-all', ...(request.network ? ['--share-net'] : [])];
  return ['--unshare-user-try', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
}

/**
 * bwrap argv (without the binary) that runs request.command in bash with request.args as $1...;
 * the command itself travels in the environment (command-text.ts: lineEnv), or, with
 * `bashTail` pipedBashWords(), on fd 3 with the args.
 */
export function buildBwrapArgs(
  request: ShellRequest,
  home: string,
  masks: readonly SecretMask[] = [],
  prlimit: string = defaultPrlimitPath,
  bashTail: readonly string[] = bashWords(request.args),
  seccompFd?: number,
): string[] {
  const argv = ['--die-with-parent', '--new-session', ...namespaces(request), '--cap-drop', 'ALL'];
  // The filter that refuses unix sockets to a call no person approved (unix-socket-filter.ts).
  if (seccompFd !== undefined) argv.push('--seccomp', String(seccompFd));
  // Code nobody reviewed sees the system's parts and the places its decision named, on an empty
  // root (code-view-places.ts); anything else the host's whole /, read-only.
  const view = request.codeView;
  if (view === undefined) argv.push('--ro-bind', '/', '/');
  else for (const part of SYSTEM_PARTS) argv.push('--ro-bind-try', part, part);
  argv.push('--dev', '/dev');
  // The host's /proc when its processes are in view.
  if (request.hostProcesses !== true) argv.push('--proc', '/proc');
  else if (view !== undefined) argv.push('--ro-bind', '/proc', '/proc');
  argv.push(...sized(request.tmpSizeBytes), '--tmpfs', '/tmp');
  // --dev puts /dev/shm in its own unsized tmpfs; a sized one over it keeps RAM bounded too.
  if (request.tmpSizeBytes !== undefined)
    argv.push('--perms', '01777', ...sized(request.tmpSizeBytes), '--tmpfs', '/dev/shm');
  // An empty home, and the places the code's decision named, in it or elsewhere.
  if (view !== undefined) {
    argv.push(...sized(request.tmpSizeBytes), '--tmpfs', home);
    for (const place of codeViewPlaces(view.places, request.env.PATH, home))
      argv.push('--ro-bind-try', place, place);
  }
  // A HOME under /tmp (tests, containers) stays visible read-only like the rest of the system.
  else if (home !== '/tmp' && isUnder(home, '/tmp')) argv.push('--ro-bind', home, home);
  // Roots this call may only read come first, so a writable bind over the same place wins.
  if (view === undefined)
    for (const root of rootsUnderTmp(request.visibleRoots ?? [], home))
      argv.push('--ro-bind-try', root, root);
  const writable = [...new Set(request.writableRoots)]
    .filter((root) => root !== '/tmp')
    .sort((a, b) => a.length - b.length);
  for (const root of writable) argv.push('--bind-try', root, root);
  for (const path of request.readOnlyWithin ?? []) argv.push('--ro-bind-try', path, path);
  // The credential files of the code's work tree, and its histories, after its binds.
  for (const mask of [...masks, ...(view?.masked ?? [])]) {
    if (mask.kind === 'dir') argv.push('--tmpfs', mask.path);
    else if (mask.kind === 'file') argv.push('--ro-bind', '/dev/null', mask.path);
  }
  // A checked public key file shows through its store's mask, and nothing else of it does.
  for (const mask of masks)
    if (mask.kind === 'public') argv.push('--ro-bind', mask.path, mask.path);
  // Its mount points made, the empty root and home are read-only too: a write fails as it says.
  if (view !== undefined) argv.push('--remount-ro', home, '--remount-ro', '/');
  argv.push('--chdir', request.cwd, ...limits(request, prlimit));
  argv.push('bash', ...bashTail);
  return argv;
}
