// Which secret stores exist right now, and how bubblewrap must hide each one. Runs before
// every sandboxed command, so it reads each parent directory once instead of stat-ing
// every candidate.
import type { Dirent } from 'node:fs';
import { mkdir, readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { userInfo } from 'node:os';
import { configDir, dataDir, homeDir, stateDir } from '../../runtime/paths.ts';
import type { SecretMask } from './bwrap-args.ts';
import {
  hostKeyDirectory,
  hostKeyName,
  secretStores,
  systemSecretStores,
} from './secret-stores.ts';

/** The account's home from the password database; undefined when there is none. */
function accountHome(): string | undefined {
  try {
    return userInfo().homedir;
  } catch {
    return undefined;
  }
}

/** Parent directory -> which of its entry names are secrets. */
function candidates(env: NodeJS.ProcessEnv): Map<string, (name: string) => boolean> {
  // The HOME the command sees and the account's real one: a daemon started with another
  // HOME must not leave the real ~/.ssh readable.
  const homes = new Set([homeDir(env), accountHome()].filter((home) => home !== undefined));
  const paths = new Set([
    ...[...homes].flatMap((home) => secretStores.map((relative) => join(home, relative))),
    ...systemSecretStores,
    configDir(env),
    dataDir(env),
    stateDir(env),
  ]);
  const names = new Map<string, Set<string>>();
  for (const path of paths) {
    const set = names.get(dirname(path)) ?? new Set<string>();
    set.add(basename(path));
    names.set(dirname(path), set);
  }
  const out = new Map<string, (name: string) => boolean>();
  for (const [parent, set] of names) out.set(parent, (name) => set.has(name));
  const listed = out.get(hostKeyDirectory);
  out.set(hostKeyDirectory, (name) => hostKeyName.test(name) || (listed?.(name) ?? false));
  return out;
}

async function maskFor(parent: string, entry: Dirent): Promise<SecretMask | undefined> {
  const path = join(parent, entry.name);
  // A link is masked as what it points to (bwrap mounts over the link's target).
  const isDirectory = entry.isSymbolicLink()
    ? await stat(path).then(
        (stats) => stats.isDirectory(),
        () => undefined,
      )
    : entry.isDirectory();
  if (isDirectory === undefined) return undefined;
  return { path, kind: isDirectory ? 'dir' : 'file' };
}

/**
 * Secret stores that exist: under the request's HOME and the account's home, system secrets
 * (/etc/shadow, sudoers, ssh host keys) and Custode's own config, data and state dirs wherever
 * XDG_* puts them (created when missing); each with the kind of mask it needs.
 */
export async function findSecretMasks(env: NodeJS.ProcessEnv): Promise<SecretMask[]> {
  // Custode's own dirs are created first, so they are always masked: a command must not plant
  // a fake audit log or rule file before the daemon writes its first one.
  await Promise.all(
    [configDir(env), dataDir(env), stateDir(env)].map((dir) =>
      mkdir(dir, { recursive: true, mode: 0o700 }).catch(() => undefined),
    ),
  );
  const found = await Promise.all(
    [...candidates(env)].map(async ([parent, isSecret]) => {
      const entries = await readdir(parent, { withFileTypes: true }).catch(() => []);
      return Promise.all(
        entries.filter((entry) => isSecret(entry.name)).map((entry) => maskFor(parent, entry)),
      );
    }),
  );
  return found.flat().filter((mask) => mask !== undefined);
}

/**
 * Runtime directories that hold the host's unix sockets (/run, /var/run, $XDG_RUNTIME_DIR):
 * a socket on a read-only bind still connects, and the Docker socket or the user's D-Bus
 * (systemd-run --user) runs anything outside the sandbox. Masked for calls no person approved.
 */
export async function runtimeDirMasks(env: NodeJS.ProcessEnv): Promise<SecretMask[]> {
  const candidates = ['/run', '/var/run', env.XDG_RUNTIME_DIR].filter(
    (dir): dir is string => dir !== undefined && dir.startsWith('/'),
  );
  const real = await Promise.all(
    candidates.map((dir) =>
      realpath(dir).then(
        async (path) => ((await stat(path)).isDirectory() ? path : undefined),
        () => undefined,
      ),
    ),
  );
  const dirs = [...new Set(real.filter((dir) => dir !== undefined))];
  // A dir inside another one is hidden with it.
  return dirs
    .filter((dir) => !dirs.some((other) => other !== dir && dir.startsWith(`${other}/`)))
    .map((path) => ({ path, kind: 'dir' as const }));
}
