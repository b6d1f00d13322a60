// Which protected places exist right now, and how bubblewrap must hide each one. The places
// come from the one protected list (constitution/protected.ts); this reads each parent
// directory once instead of stat-ing every candidate, since it runs before every command.
import type { Dirent } from 'node:fs';
import { mkdir, readdir, realpath, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { userInfo } from 'node:os';
import { maskedStores } from '../../constitution/protected.ts';
import { configDir, dataDir, homeDir, stateDir } from '../../runtime/paths.ts';
import type { SecretMask } from './bwrap-args.ts';

/** The account's home from the password database; undefined when there is none. */
function accountHome(): string | undefined {
  try {
    return userInfo().homedir;
  } catch {
    return undefined;
  }
}

/** A `*` segment as a matcher of one directory entry's name. */
function nameMatcher(segment: string): (name: string) => boolean {
  if (!segment.includes('*')) return (name) => name === segment;
  const source = segment.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  const regex = new RegExp(`^${source.join('[^/]*')}$`);
  return (name) => regex.test(name);
}

/** The directories a path's `*` segments (all but the last) stand for, right now. */
async function expandDirs(path: string): Promise<string[]> {
  const segments = path.split('/').filter((segment) => segment !== '');
  let dirs = ['/'];
  for (const segment of segments.slice(0, -1)) {
    if (!segment.includes('*')) {
      dirs = dirs.map((dir) => join(dir, segment));
      continue;
    }
    const matches = nameMatcher(segment);
    const found = await Promise.all(
      dirs.map(async (dir) => {
        const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
        return entries
          .filter((e) => e.isDirectory() && matches(e.name))
          .map((e) => join(dir, e.name));
      }),
    );
    dirs = found.flat();
  }
  return dirs;
}

/** Parent directory -> which of its entry names are protected. */
async function candidates(env: NodeJS.ProcessEnv): Promise<Map<string, (name: string) => boolean>> {
  // The HOME the command sees and the account's real one: a daemon started with another
  // HOME must not leave the real ~/.ssh readable.
  const homes = new Set([homeDir(env), accountHome()].filter((home) => home !== undefined));
  const stores = maskedStores();
  const paths = new Set([
    ...[...homes].flatMap((home) => stores.home.map((relative) => join(home, relative))),
    ...stores.system,
    configDir(env),
    dataDir(env),
    stateDir(env),
  ]);
  const names = new Map<string, ((name: string) => boolean)[]>();
  await Promise.all(
    [...paths].map(async (path) => {
      for (const parent of await expandDirs(path)) {
        const list = names.get(parent) ?? [];
        list.push(nameMatcher(basename(path)));
        names.set(parent, list);
      }
    }),
  );
  const out = new Map<string, (name: string) => boolean>();
  for (const [parent, list] of names) out.set(parent, (name) => list.some((m) => m(name)));
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
 * Protected places that exist: the masks of every protected family under the request's HOME and
 * the account's home, system secrets (/etc/shadow, sudoers, ssh host keys) and Custode's own
 * config, data and state dirs wherever XDG_* puts them (created when missing); each with the
 * kind of mask it needs.
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
    [...(await candidates(env))].map(async ([parent, isSecret]) => {
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
