// The executors' view of the one protected list: Custode's own dirs resolved from this call's
// environment, and a protected store's other names, so a walk, a listing, the run-time re-check
// and the guard stage agree. A store's bytes can be reached under another name two ways: a
// symbolic link in the store leads to them (stow-style dotfiles: ~/.npmrc -> ~/dotfiles/npmrc,
// ~/.aws/credentials -> ~/dotfiles/aws), and a hard link elsewhere is the same file
// (~/notes/key is ~/.ssh/id_ed25519). Both are found by looking inside the stores that exist.
import { lstatSync, readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { maskedStores, protectionOf, type Protection } from '../constitution/protected.ts';
import { configDir, dataDir, homeDir, stateDir } from '../runtime/paths.ts';

/** A question for absolute paths: which protected place, if any, holds this one. */
export type ProtectedCheck = (path: string) => Protection | null;

/** Other names of protected bytes: where store links lead, and the files hard-linked to. */
export interface StoreAliases {
  /** Where a store, or a link inside one, really is (outside the store's own name). */
  readonly linkTargets: readonly string[];
  /**
   * `dev:ino` of every file in a store that has more than one name, looked for when first
   * asked (only a file with several names asks); null when the stores are too large to look
   * through, so a file with several names may be one of theirs.
   */
  readonly hardLinked: () => ReadonlySet<string> | null;
}

const HARD_LINK: Protection = {
  name: 'a hard link to a protected file (the same bytes as a key or token under another name)',
  why: 'a second name for a secret is the secret',
};

const UNCHECKED_HARD_LINK: Protection = {
  name: 'a file with several names, and the protected stores too large to tell whether one is theirs',
  why: 'a second name for a secret is the secret, and an unchecked one may be',
};

/** How deep inside a store, and how many entries in all, the look for links that leave it goes. */
const STORE_DEPTH = 4;
const STORE_ENTRIES = 5000;
/** How many entries the look for hard-linked files goes through, at any depth, before it gives up. */
const HARD_LINK_ENTRIES = 200_000;
/** The stores change rarely; a decision and its run ask twice within this time. */
const FRESH_MS = 2000;

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/** A home's stores without a `*` (a pure function of the home), and its `*` patterns. */
let storesOfHome: { home: string; fixed: string[]; starred: string[] } | undefined;

/** The home-relative stores, a `*` taken as every name there is now. */
function storePaths(home: string): string[] {
  if (storesOfHome?.home !== home) {
    const stores = maskedStores().home;
    storesOfHome = {
      home,
      fixed: stores.filter((store) => !store.includes('*')).map((store) => join(home, store)),
      starred: stores.filter((store) => store.includes('*')),
    };
  }
  // What a `*` stands for is read on every call: a store created a moment ago counts now.
  return [
    ...storesOfHome.fixed,
    ...storesOfHome.starred.flatMap((store) => {
      const star = store.indexOf('*');
      const dir = join(home, store.slice(0, star));
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return [];
      }
      return names.map((name) => join(dir, name + store.slice(star + 1)));
    }),
  ];
}

/** Walk the stores that exist (bounded) for the links that leave them. */
function findLinkTargets(stores: readonly string[]): string[] {
  const linkTargets: string[] = [];
  let budget = STORE_ENTRIES;
  const visit = (path: string, depth: number): void => {
    if (budget <= 0) return;
    budget -= 1;
    const stat = lstatOrNull(path);
    if (stat === null) return;
    if (stat.isSymbolicLink()) {
      try {
        linkTargets.push(realpathSync(path));
      } catch {
        // dangling: nothing to protect elsewhere
      }
      return;
    }
    if (!stat.isDirectory() || depth >= STORE_DEPTH) return;
    for (const name of namesOf(path)) visit(join(path, name), depth + 1);
  };
  for (const store of stores) visit(store, 0);
  return linkTargets;
}

function namesOf(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * `dev:ino` of every multi-named file in the stores, at any depth (links are not followed); null
 * when there are more than HARD_LINK_ENTRIES entries to look at.
 */
function findHardLinked(stores: readonly string[]): ReadonlySet<string> | null {
  const hardLinked = new Set<string>();
  const pending = [...stores];
  for (let seen = 0, path = pending.pop(); path !== undefined; path = pending.pop()) {
    seen += 1;
    if (seen > HARD_LINK_ENTRIES) return null;
    const stat = lstatOrNull(path);
    if (stat?.isFile() === true && stat.nlink > 1) hardLinked.add(`${stat.dev}:${stat.ino}`);
    if (stat?.isDirectory() === true)
      for (const name of namesOf(path)) pending.push(join(path, name));
  }
  return hardLinked;
}

let cached: { key: string; at: number; aliases: StoreAliases } | undefined;

/**
 * The other names of the stores in `env`'s home and of Custode's own dirs (cached briefly, like
 * everything found inside the stores: a decision asks for every path it names, several times).
 */
export function storeAliasesOf(env: NodeJS.ProcessEnv): StoreAliases {
  const home = homeDir(env);
  const own = [configDir(env), dataDir(env), stateDir(env)];
  const key = [home, ...own].join('\0');
  const now = Date.now();
  if (cached?.key === key && now - cached.at < FRESH_MS) return cached.aliases;
  const stores = [...storePaths(home), ...own];
  let hardLinked: ReadonlySet<string> | null | undefined;
  const aliases: StoreAliases = {
    linkTargets: findLinkTargets(stores),
    hardLinked: () =>
      hardLinked === undefined ? (hardLinked = findHardLinked(stores)) : hardLinked,
  };
  cached = { key, at: now, aliases };
  return aliases;
}

/** The protection of a file that is another name of a hard-linked store file; else null. */
export function hardLinkProtection(
  path: string,
  hardLinked: StoreAliases['hardLinked'],
): Protection | null {
  let stat: Stats | undefined;
  try {
    stat = statSync(path, { throwIfNoEntry: false });
  } catch {
    return null;
  }
  if (stat === undefined || !stat.isFile() || stat.nlink < 2) return null;
  const known = hardLinked();
  if (known === null) return UNCHECKED_HARD_LINK;
  return known.has(`${stat.dev}:${stat.ino}`) ? HARD_LINK : null;
}

/** Places protected besides the families: Custode's dirs and where store links lead. */
export function protectedDirsOf(env: NodeJS.ProcessEnv): string[] {
  return [configDir(env), dataDir(env), stateDir(env), ...storeAliasesOf(env).linkTargets];
}

/** The protected-place check for a call run with `env`: by name, by link, by hard link. */
export function protectedCheck(env: NodeJS.ProcessEnv): ProtectedCheck {
  const own = protectedDirsOf(env);
  const { hardLinked } = storeAliasesOf(env);
  return (path) => protectionOf(path, own) ?? hardLinkProtection(path, hardLinked);
}

/** Most names looked at in one PATH directory for links that lead out of it. */
const PATH_DIR_ENTRIES = 500;

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** Where the links among `dir`'s names (the first `limit`, `pick` ones) really lead. */
function linkTargetsIn(dir: string, pick: (name: string) => boolean, limit: number): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter(pick).slice(0, limit);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    if (lstatOrNull(path)?.isSymbolicLink() !== true) return [];
    const real = realOrNull(path);
    return real === null ? [] : [real];
  });
}

let cachedRunsLater: { key: string; at: number; places: string[] } | undefined;

/**
 * Where the places that decide what runs later really are, when they are links: the home's
 * hidden names and ~/bin (~/.bashrc -> ~/dotfiles/bashrc, ~/bin -> ~/dotfiles/bin), the links in
 * ~/.config, and the PATH's directories and the programs linked into them. A write there is a
 * write to the startup file or the program itself (cached briefly).
 */
export function runsLaterTargetsOf(home: string, commandDirs: readonly string[]): string[] {
  const key = [home, ...commandDirs].join('\0');
  const now = Date.now();
  if (cachedRunsLater?.key === key && now - cachedRunsLater.at < FRESH_MS)
    return cachedRunsLater.places;
  const places = [
    ...linkTargetsIn(home, (name) => name.startsWith('.') || name === 'bin', PATH_DIR_ENTRIES),
    ...linkTargetsIn(join(home, '.config'), () => true, PATH_DIR_ENTRIES),
    ...commandDirs.flatMap((dir) => {
      const real = realOrNull(dir);
      const inHome = dir === home || dir.startsWith(`${home}/`);
      return [
        ...(real !== null && real !== dir ? [real] : []),
        ...(inHome ? linkTargetsIn(dir, () => true, PATH_DIR_ENTRIES) : []),
      ];
    }),
  ];
  cachedRunsLater = { key, at: now, places };
  return places;
}
