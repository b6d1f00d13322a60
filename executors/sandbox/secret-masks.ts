// Which protected places exist right now, and how bubblewrap must hide each one. The places
// come from the one protected list (constitution/protected.ts); this reads each parent
// directory once instead of stat-ing every candidate, since it runs before every command.
// What the directories hold is never cached: a store created a moment ago is masked on the next
// call. Only where to look (a pure function of the homes and XDG dirs) is kept between calls.
// The scan is synchronous: about 30 small directory reads, most of them of places that do not
// exist, cost half or less of what the same reads cost through the thread pool (`custode bench
// sandbox` prints the scan's time), and the event loop is held for well under a millisecond.
import { mkdirSync, readdirSync, statSync, type Dirent } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { userInfo } from 'node:os';
import { HOST_SOCKET_PLACES, maskedStores } from '../../constitution/protected.ts';
import { configDir, dataDir, homeDir, stateDir } from '../../runtime/paths.ts';
import type { SecretMask } from './bwrap-args.ts';
import { isPublicKeyFile } from '../ops/public-key-file.ts';
import { protectedDirsOf, storeAliasesOf } from '../protected-places.ts';
import { isUnder } from '../../runtime/vaglio/normalize-path.ts';
import { credentialFileByName } from '../../constitution/credential-files.ts';
import type { CodeView } from '../ops/shell-ops.ts';
import { filesNamedBelow } from '../ops/tree-protection.ts';

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

/** The entries of `dir`, none when it cannot be read (missing, not a directory, no access). */
function entriesOf(dir: string): Dirent[] {
  try {
    // Asked first so that a missing directory, the usual case, costs no thrown error.
    if (statSync(dir, { throwIfNoEntry: false })?.isDirectory() !== true) return [];
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** The directories a directory path with `*` segments stands for, right now. */
function expandDirs(pattern: string): string[] {
  if (!pattern.includes('*')) return [pattern];
  let dirs = ['/'];
  for (const segment of pattern.split('/').filter((segment) => segment !== '')) {
    if (!segment.includes('*')) {
      dirs = dirs.map((dir) => join(dir, segment));
      continue;
    }
    const matches = nameMatcher(segment);
    dirs = dirs.flatMap((dir) =>
      entriesOf(dir)
        .filter((e) => e.isDirectory() && matches(e.name))
        .map((e) => join(dir, e.name)),
    );
  }
  return dirs;
}

/** Parent directory (its `*` segments not yet expanded) -> which of its entry names are protected. */
type Candidates = ReadonlyMap<string, (name: string) => boolean>;

/** The candidates of the last HOME and XDG dirs asked about: a pure function of them. */
let last: { key: string; candidates: Candidates } | undefined;

/** Where protected places may be, for the HOME the command sees and the account's real one. */
function candidates(env: NodeJS.ProcessEnv): Candidates {
  // The HOME the command sees and the account's real one: a daemon started with another
  // HOME must not leave the real ~/.ssh readable.
  const homes = [...new Set([homeDir(env), accountHome()].filter((home) => home !== undefined))];
  const own = [configDir(env), dataDir(env), stateDir(env)];
  const key = JSON.stringify([homes, own]);
  if (last?.key === key) return last.candidates;
  const stores = maskedStores();
  const paths = new Set([
    ...homes.flatMap((home) => stores.home.map((relative) => join(home, relative))),
    ...stores.system,
    ...own,
  ]);
  const names = new Map<string, ((name: string) => boolean)[]>();
  for (const path of paths) {
    const parent = dirname(path);
    names.set(parent, [...(names.get(parent) ?? []), nameMatcher(basename(path))]);
  }
  const out = new Map<string, (name: string) => boolean>();
  for (const [parent, list] of names) out.set(parent, (name) => list.some((m) => m(name)));
  last = { key, candidates: out };
  return out;
}

function maskFor(parent: string, entry: Dirent): SecretMask | undefined {
  const path = join(parent, entry.name);
  // A link is masked as what it points to (bwrap mounts over the link's target).
  const isDirectory = entry.isSymbolicLink() ? linkedIsDirectory(path) : entry.isDirectory();
  if (isDirectory === undefined) return undefined;
  return { path, kind: isDirectory ? 'dir' : 'file' };
}

/** Whether the link at `path` points to a directory; undefined when it points nowhere readable. */
function linkedIsDirectory(path: string): boolean | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory();
  } catch {
    return undefined;
  }
}

/**
 * Protected places that exist: the masks of every protected family under the request's HOME and
 * the account's home, system secrets (/etc/shadow, sudoers, ssh host keys) and Custode's own
 * config, data and state dirs wherever XDG_* puts them (created when missing); each with the
 * kind of mask it needs.
 */
export function findSecretMasks(env: NodeJS.ProcessEnv): SecretMask[] {
  // Custode's own dirs are created first, so they are always masked: a command must not plant
  // a fake audit log or rule file before the daemon writes its first one.
  for (const dir of [configDir(env), dataDir(env), stateDir(env)]) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch {
      // As before: a dir that cannot be created is still masked below if it exists.
    }
  }
  // The directories are read on every call: a store created a moment ago is masked now.
  const masks = [...candidates(env)].flatMap(([pattern, isSecret]) =>
    expandDirs(pattern).flatMap((parent) =>
      entriesOf(parent)
        .filter((entry) => isSecret(entry.name))
        .map((entry) => maskFor(parent, entry))
        .filter((mask) => mask !== undefined),
    ),
  );
  return [...masks, ...linkTargetMasks(env, masks), ...publicKeysIn(masks, env)];
}

/**
 * Where the links inside the stores lead (stow's ~/.aws/credentials -> ~/dotfiles/aws/credentials):
 * the store's mask hides the link, not the file, which code could read by its own name. Not a
 * target that holds the home (hiding it would hide the call's own files; the path check still
 * refuses every name of it), nor one inside a store already hidden whole (a mask over it would
 * only add its name to the empty dir: `~/.ssh/link.pub -> id_ed25519`).
 */
function linkTargetMasks(env: NodeJS.ProcessEnv, masks: readonly SecretMask[]): SecretMask[] {
  const home = homeDir(env);
  const hiddenDirs = masks.filter((mask) => mask.kind === 'dir').map((mask) => mask.path);
  return storeAliasesOf(env)
    .linkTargets.filter((target) => !isUnder(home, target))
    .filter((target) => !hiddenDirs.some((dir) => isUnder(target, dir)))
    .flatMap((path) => {
      const isDirectory = linkedIsDirectory(path);
      return isDirectory === undefined
        ? []
        : [{ path, kind: isDirectory ? 'dir' : 'file' } as const];
    });
}

/**
 * The public key files directly inside a masked dir (constitution/public-keys.ts): each one a
 * regular file, not a link, judged by what it holds now. They show through the mask read-only.
 */
function publicKeysIn(masks: readonly SecretMask[], env: NodeJS.ProcessEnv): SecretMask[] {
  const own = protectedDirsOf(env);
  return masks
    .filter((mask) => mask.kind === 'dir')
    .flatMap((mask) =>
      entriesOf(mask.path)
        .filter((entry) => entry.isFile() && entry.name.endsWith('.pub'))
        .map((entry) => join(mask.path, entry.name))
        .filter((path) => isPublicKeyFile(path, own))
        .map((path) => ({ path, kind: 'public' as const })),
    );
}

/**
 * Files a program reads at every start and whose lines run other programs, which code nobody
 * reviewed must not find: sqlite3's rc (`.shell` runs a program), which it looks up in the
 * account's home (getpwuid, before $HOME) and, from 3.44, in $XDG_CONFIG_HOME/sqlite3. Those that
 * exist are masked by /dev/null for a call whose sandbox shows an empty home (home-view.ts): the
 * account's home is not that home when the daemon runs with another HOME.
 */
export function startupFileMasks(env: NodeJS.ProcessEnv): SecretMask[] {
  const homes = [...new Set([homeDir(env), accountHome()].filter((home) => home !== undefined))];
  const xdg = env.XDG_CONFIG_HOME;
  const configHomes = [
    ...homes.map((home) => join(home, '.config')),
    ...(xdg?.startsWith('/') === true ? [xdg] : []),
  ];
  return [
    ...homes.map((home) => join(home, '.sqliterc')),
    ...configHomes.map((dir) => join(dir, 'sqlite3', 'sqliterc')),
  ]
    .filter((path) => linkedIsDirectory(path) === false)
    .map((path) => ({ path, kind: 'file' as const }));
}

/**
 * The places that hold the host's unix sockets (constitution/protected.ts HOST_SOCKET_PLACES:
 * /run, /var/run, the container engines' dirs in the request's home and the account's) and
 * $XDG_RUNTIME_DIR, those that exist as directories: a socket on a read-only bind still
 * connects, and the Docker socket or the user's D-Bus (systemd-run --user) runs anything outside
 * the sandbox. Masked for calls no person approved.
 */
export async function hostSocketMasks(env: NodeJS.ProcessEnv): Promise<SecretMask[]> {
  const homes = [...new Set([homeDir(env), accountHome()].filter((home) => home !== undefined))];
  const candidates = [
    ...HOST_SOCKET_PLACES.system,
    ...homes.flatMap((home) => HOST_SOCKET_PLACES.home.map((place) => join(home, place))),
    env.XDG_RUNTIME_DIR,
  ].filter((dir): dir is string => dir !== undefined && dir.startsWith('/'));
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

/**
 * The files a credential's name marks (constitution/credential-files.ts) in the places code
 * nobody reviewed sees, found now: one made between its decision and its run (`.env.local`) is
 * hidden as those the decision found. Null when a place has grown past what a walk reads or cannot
 * be read whole: the run then refuses rather than show what it did not look at.
 */
export function credentialFileMasks(view: CodeView): SecretMask[] | null {
  const found = view.places.map((place) =>
    filesNamedBelow(place, (path) => credentialFileByName(path) !== null),
  );
  if (found.some((files) => files === null)) return null;
  const decided = new Set(view.masked.map((mask) => mask.path));
  return [...new Set(found.flatMap((files) => files ?? []))]
    .filter((path) => !decided.has(path))
    .map((path) => ({ path, kind: 'file' }));
}
