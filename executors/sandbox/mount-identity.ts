// What the places a bubblewrap command line mounts are, right now. bwrap mounts on what a path
// names when it starts; a pre-started sandbox keeps those mounts while it waits. If the host then
// renames a file over a masked one (npm, editors and passwd all save that way), the kernel drops
// the sandbox's mask with the old file and the sandbox sees the new file unmasked; a workspace
// deleted and cloned again would stay bound as the deleted one. The same argv is not enough: the
// places must still be the same files, so a pre-started sandbox is used only when this identity
// is unchanged since before it started.
import { statSync } from 'node:fs';

/** bwrap options this file knows: how many operands each takes, and whether they are paths. */
const OPTIONS: ReadonlyMap<string, { operands: number; paths: boolean }> = new Map([
  ['--die-with-parent', { operands: 0, paths: false }],
  ['--new-session', { operands: 0, paths: false }],
  ['--unshare-all', { operands: 0, paths: false }],
  ['--share-net', { operands: 0, paths: false }],
  ['--unshare-user-try', { operands: 0, paths: false }],
  ['--unshare-ipc', { operands: 0, paths: false }],
  ['--unshare-uts', { operands: 0, paths: false }],
  ['--unshare-cgroup-try', { operands: 0, paths: false }],
  ['--cap-drop', { operands: 1, paths: false }],
  ['--perms', { operands: 1, paths: false }],
  ['--size', { operands: 1, paths: false }],
  ['--dev', { operands: 1, paths: true }],
  ['--proc', { operands: 1, paths: true }],
  ['--tmpfs', { operands: 1, paths: true }],
  ['--chdir', { operands: 1, paths: true }],
  ['--bind', { operands: 2, paths: true }],
  ['--bind-try', { operands: 2, paths: true }],
  ['--ro-bind', { operands: 2, paths: true }],
  ['--ro-bind-try', { operands: 2, paths: true }],
]);

/**
 * System places bwrap covers with fresh mounts of its own or binds whole: they change their
 * ctime whenever anything is created in them, so only which inode they are is compared.
 */
const WHOLE = new Set(['/', '/dev', '/proc', '/tmp', '/dev/null', '/dev/shm']);

/** Every path the argv's options name, in order; undefined when an option is not known here. */
function mountedPaths(argv: readonly string[]): string[] | undefined {
  const paths: string[] = [];
  let index = 0;
  while (index < argv.length && argv[index]?.startsWith('--') === true) {
    const option = OPTIONS.get(argv[index] ?? '');
    // Fail closed: an option whose operands are unknown could hide a path.
    if (option === undefined) return undefined;
    const operands = argv.slice(index + 1, index + 1 + option.operands);
    if (option.paths) paths.push(...operands);
    index += 1 + option.operands;
  }
  return paths;
}

/** What `path` names now (following links, as bwrap does): device, inode and, but for WHOLE, ctime. */
function identityOf(path: string): string {
  try {
    const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
    if (stats === undefined) return `${path} missing`;
    // ctime moves on every link, unlink and rename of the inode: a hard link to the same file
    // under the masked name, or an inode number used again, is a different place.
    const ctime = WHOLE.has(path) ? '' : ` ${String(stats.ctimeNs)}`;
    return `${path} ${String(stats.dev)}:${String(stats.ino)}${ctime}`;
  } catch (error) {
    return `${path} unreadable ${(error as NodeJS.ErrnoException).code ?? ''}`;
  }
}

/**
 * One string that changes when any place the argv mounts or binds names another file than it did;
 * undefined when the argv has an option this file cannot read (then nothing is pre-started).
 */
export function mountIdentity(argv: readonly string[]): string | undefined {
  const paths = mountedPaths(argv);
  return paths === undefined ? undefined : [...new Set(paths)].map(identityOf).join('\n');
}
