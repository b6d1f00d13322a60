// The path oracle: the one place a stage, a tier or the scope check asks about a path. It
// resolves a word as the program will (cwd, ~, $HOME, .., the symlinks of what exists) and
// answers from the one protected list (constitution/protected.ts) and the configured roots.
// No stage borrows another stage's check by calling it with a made-up executor.
import { globMatches, type GlobObstacle } from '../../executors/ops/glob-matches.ts';
import {
  linkedDirectoryFree,
  maskableCredentials,
  namesSplitFree,
  type MaskableCredentials,
  secretNameBelow,
  treeObstacle,
  type TreeObstacle,
} from '../../executors/ops/tree-protection.ts';
import { hardLinkProtection, type StoreAliases } from '../../executors/protected-places.ts';
import type { ForbiddenPath } from '../../constitution/forbidden-paths.ts';
import { protectionOf, type Protection } from '../../constitution/protected.ts';
import { ANY_CREDENTIAL } from '../../constitution/stored-credentials.ts';
import { isUnder } from '../vaglio/normalize-path.ts';
import type { Staging } from './workspace/spec.ts';
import { storedSqlIn } from './stored-sql.ts';
import {
  credentialFileProtection,
  credentialInWalk,
  historyCredential,
  messageCredential,
  stagedCredential,
  TOO_MUCH_TEXT,
  TREE_TEXT_LIMIT,
  treeTextBudget,
  type HistoryUse,
  type TextUse,
} from './credential-file.ts';
import {
  gitProgramProtection,
  repositoryExposure,
  type RepositoryPart,
  type RepositoryReader,
} from './repository-exposure.ts';
import {
  absoluteUserPath,
  resolveThroughSymlinks,
  type RealPath,
  type ResolvedRoots,
} from './scope-paths.ts';

const SECRETS_ONLY: ReadonlySet<ForbiddenPath['kind']> = new Set(['secret']);

export interface PathOracle {
  readonly home: string;
  /** The home with its symlinks resolved. */
  readonly realHome: string;
  readonly roots: ResolvedRoots;
  /** A word as an absolute, lexically normal path, relative words taken from `cwd` (default ~). */
  absolute(word: string, cwd?: string): string;
  /** The path with the symlinks of its longest existing ancestor resolved. */
  real(path: string): string;
  /**
   * The protected place an absolute path is in, by its text or where its links lead; null when
   * none. `metadataOnly`: the caller reads a raw device's metadata (ls /dev/sda), not its bytes.
   * `read`: the caller only reads it, so a public key file (publicKey) is no protected place.
   */
  protection(
    path: string,
    use?: { readonly metadataOnly?: boolean; readonly read?: boolean },
  ): Protection | null;
  /** The path reads a public key and nothing else, judged by what it holds now. */
  publicKey(path: string): boolean;
  /** Inside roots.read (anywhere when unset) or roots.write, once its links are resolved. */
  inRoots(path: string, access: 'read' | 'write'): boolean;
  /**
   * Why a git command run in `dir` that prints `part` of its repository (file contents from its
   * objects, or its config) could show a secret; null when it cannot.
   */
  repositoryExposure(dir: string, part: RepositoryPart): Protection | null;
  /** Why a git command run in `dir` could start a program its config names; null when none. */
  gitProgram(dir: string): Protection | null;
  /** `git config --list --includes` as a git command in `dir` sees it; null when unknown. */
  gitConfig(dir: string): string | null;
  /**
   * A credential in a file version or message the repository in `dir` stores (what `git log -p`
   * prints) or in a tracked file's uncommitted edit (what `git diff` prints); null when none or
   * outside a repository. A history past what a decision reads counts only with `use.anyForm`.
   */
  historyCredential(dir: string, use?: HistoryUse): Protection | null;
  /** As historyCredential, for the commit and tag messages alone (what `git log --oneline` prints). */
  messageCredential(dir: string, use?: TextUse): Protection | null;
  /** A credential in a file git run in `dir` would stage or commit (`git add -A`); null when none. */
  stagedCredential(dir: string, stagings: readonly Staging[]): Protection | null;
  /** The stored SQL a query of the database at `path` would run (stored-sql.ts), or null. */
  storedSql(path: string): string | null;
  /**
   * A file holding a credential its place does not protect (a dotenv file, a key store, a git
   * config with a login, a key block or token in its text, an env file's API_KEY=…); else null.
   * `use.anyForm`: the caller may print the text in a form no output filter recognises (a shell
   * line: `rev`, `od -c`, `fold`), so a file larger than a decision reads is one too.
   */
  storedCredential(path: string, use?: TextUse): Protection | null;
  /**
   * True when the file has more text than a decision reads for a credential (TREE_TEXT_LIMIT):
   * Custode's own readers cut what they show, another agent's reader shows it whole.
   */
  textTooLarge(path: string): boolean;
  /**
   * Why a tree read whole from `dir` could open a protected place, or a file holding a
   * credential (by its name or text), below it; null when none. `followLinks`: the reader goes
   * where the links to directories below lead (diff -r).
   */
  treeObstacle(dir: string, use?: { readonly followLinks?: boolean }): TreeObstacle | null;
  /**
   * The files below `dir` holding a credential by name or text, each where it really is (a
   * link's target), which a sandbox can hide; or the obstacle treeObstacle would find that no
   * mask removes (a protected place, more text or entries than a decision reads).
   */
  maskableCredentials(dir: string): { readonly obstacle: TreeObstacle } | MaskableCredentials;
  /**
   * The first protected place below `dir` by its own name or as a store's other name (a hard
   * link), links not followed; null when none or `dir` is no directory. What a copy of the tree
   * would turn into an ordinary file (a move across the sandbox's binds copies).
   */
  protectedBelow(dir: string): TreeObstacle | null;
  /**
   * Why reading what an absolute glob matches now could open a protected place (a match that is
   * one by where it leads, a git config holding a login, with `tree` a protected entry below a
   * match), or could not be listed; null when none.
   */
  globObstacle(pattern: string, use?: { readonly tree?: boolean } & TextUse): GlobObstacle | null;
  /**
   * The paths an absolute glob matches now, as bash expands it (`*` and `?`, no dot names; empty
   * when none); null when it cannot be listed or matches too many.
   */
  globMatches(pattern: string): readonly string[] | null;
  /** Every name below `dir` is one word to xargs (no blank, quote or backslash). */
  namesSplitFree(dir: string): boolean;
  /**
   * The first path below `dir` (or `dir` itself) whose own name holds a credential
   * (`report.pdf?access_token=…`), for a reader that prints names uncut; null when none.
   */
  secretNameBelow(dir: string): string | null;
  /** No entry below `dir` is a link to a directory (a path below it passes through none). */
  linkedDirectoryFree(dir: string): boolean;
}

export interface PathOracleOptions {
  readonly home: string;
  readonly realPath: RealPath;
  readonly roots: ResolvedRoots;
  /** Custode's own config, data and state dirs (protected wherever XDG_* puts them). */
  readonly ownDirs: readonly string[];
  /** The stores' other names as they are now: where their links lead, their hard links. */
  readonly aliases: () => StoreAliases;
  /** Reads repositories and config files (git and the disk). */
  readonly repositories: RepositoryReader;
  /** Whether a path is a public key file (executors/ops/public-key-file.ts), given the own dirs. */
  readonly isPublicKeyFile: (path: string, ownDirs: readonly string[]) => boolean;
  /**
   * Read each directory's git config, stored text and edits once (a decision's oracle:
   * one-decision.ts); a long-lived oracle reads them at every question.
   */
  readonly repositoriesOnce?: boolean;
}

/** `read` of a directory's repository, done once per directory (and limit). */
function once<T>(read: (dir: string, limit: number) => T): (dir: string, limit: number) => T {
  const found = new Map<string, T>();
  return (dir, limit) => {
    const key = `${String(limit)}:${dir}`;
    if (!found.has(key)) found.set(key, read(dir, limit));
    return found.get(key) as T;
  };
}

/**
 * `reader` with each directory's git config, stored text, messages and edited files read once:
 * a line's commands and tiers ask of one repository many times (fields replaced: a cheap spread).
 */
function repositoriesReadOnce(reader: RepositoryReader): RepositoryReader {
  const config = once((dir) => reader.config(dir));
  const edited = once((dir) => reader.editedFiles(dir));
  return {
    ...reader,
    config: (dir) => config(dir, 0),
    storedText: once((dir, limit) => reader.storedText(dir, limit)),
    messageText: once((dir, limit) => reader.messageText(dir, limit)),
    editedFiles: (dir) => edited(dir, 0),
  };
}

/**
 * The oracle over `realPath` and `aliases` (the pipeline gives each decision its own, which
 * resolves every path once: one-decision.ts); the roots come resolved.
 */
export function createPathOracle(options: PathOracleOptions): PathOracle {
  const { home, realPath, roots, isPublicKeyFile } = options;
  const repositories =
    options.repositoriesOnce === true
      ? repositoriesReadOnce(options.repositories)
      : options.repositories;
  const real = (path: string): string => resolveThroughSymlinks(path, realPath);
  // Rebuilt only when the aliases are another look-up (once per decision in a decision's oracle).
  let dirsFor: { aliases: StoreAliases; dirs: readonly string[] } | undefined;
  const protectedDirs = (): readonly string[] => {
    const aliases = options.aliases();
    if (dirsFor?.aliases !== aliases)
      dirsFor = { aliases, dirs: [...options.ownDirs, ...aliases.linkTargets] };
    return dirsFor.dirs;
  };
  /** A tool's own config in the home: below a dot-directory of it, or one of its dotfiles. */
  const toolConfig = (...names: string[]): boolean =>
    names.some((path) =>
      [home, real(home)].some((top) => path.startsWith(`${top}/.`) && top !== '/'),
    );
  /** By its text alone, or as the same file as a store's (a hard link). */
  const plain = (path: string): Protection | null =>
    protectionOf(path, protectedDirs()) ?? hardLinkProtection(path, options.aliases().hardLinked);
  /** What one tree walk asks of each entry: `followed` for a link, text read within one budget. */
  const walkChecks = (followed: (path: string) => Protection | null) => {
    const budget = treeTextBudget();
    return {
      plain,
      followed,
      credential: (path: string, link: boolean) =>
        credentialInWalk(
          path,
          link ? real(path) : path,
          repositories,
          budget,
          toolConfig(path, link ? real(path) : path),
        ),
    };
  };
  return {
    home,
    get realHome() {
      return real(home);
    },
    roots,
    absolute: (word, cwd = home) => absoluteUserPath(word, home, cwd),
    real,
    protection(path, use = {}) {
      const kinds = use.metadataOnly === true ? SECRETS_ONLY : undefined;
      const dirs = protectedDirs();
      const resolved = real(path);
      const place =
        protectionOf(path, dirs, kinds) ??
        protectionOf(resolved, dirs, kinds) ??
        hardLinkProtection(resolved, options.aliases().hardLinked);
      if (place !== null && use.read === true && isPublicKeyFile(path, options.ownDirs))
        return null;
      return place;
    },
    publicKey: (path) => isPublicKeyFile(path, options.ownDirs),
    inRoots(path, access) {
      const allowed = access === 'write' ? roots.write : roots.read;
      if (allowed === undefined) return true;
      const resolved = real(path);
      return allowed.some((root) => isUnder(resolved, root));
    },
    repositoryExposure: (dir, part) =>
      repositoryExposure(dir, part, home, repositories, (path) =>
        protectionOf(path, protectedDirs()),
      ),
    gitProgram: (dir) => gitProgramProtection(dir, repositories),
    gitConfig: (dir) => repositories.config(dir),
    historyCredential: (dir, use) => historyCredential(dir, repositories, use),
    messageCredential: (dir, use) => messageCredential(dir, repositories, use),
    stagedCredential: (dir, stagings) => stagedCredential(dir, stagings, repositories),
    storedSql(path) {
      const text = repositories.textUpTo(real(path), TREE_TEXT_LIMIT);
      if (text === 'too-large') return 'more text than a decision reads';
      return text === null ? null : storedSqlIn(text);
    },
    storedCredential(path, use = {}) {
      const resolved = real(path);
      return credentialFileProtection(path, resolved, repositories, {
        toolConfig: toolConfig(path, resolved),
        anyForm: use.anyForm === true,
      });
    },
    textTooLarge: (path) => repositories.largerThan(real(path), TREE_TEXT_LIMIT),
    protectedBelow: (dir) =>
      treeObstacle(real(dir), { plain, followed: plain, credential: () => null }),
    treeObstacle(dir, use = {}) {
      return treeObstacle(real(dir), { ...use, ...walkChecks((path) => this.protection(path)) });
    },
    maskableCredentials(dir) {
      const found = maskableCredentials(real(dir), {
        ...walkChecks((path) => this.protection(path)),
        maskable: (protection) => protection !== TOO_MUCH_TEXT,
      });
      if ('obstacle' in found) return found;
      return {
        credentials: found.credentials.map(real),
        histories: found.histories.map(real),
        compressed: found.compressed.map(real),
      };
    },
    namesSplitFree: (dir) => namesSplitFree(dir),
    secretNameBelow: (dir) => secretNameBelow(real(dir), (name) => ANY_CREDENTIAL.test(name)),
    linkedDirectoryFree: (dir) => linkedDirectoryFree(dir),
    globMatches(pattern) {
      const matches = globMatches(pattern);
      return Array.isArray(matches) ? matches : null;
    },
    globObstacle(pattern, use = {}) {
      const matches = globMatches(pattern);
      if (!Array.isArray(matches)) return matches as GlobObstacle;
      for (const path of matches) {
        const protection =
          this.protection(path, { read: true }) ??
          this.storedCredential(path, { anyForm: use.anyForm === true });
        if (protection !== null) return { kind: 'protected', path, protection };
        const below = use.tree === true ? this.treeObstacle(path) : null;
        if (below?.kind === 'protected') return below;
        if (below !== null) return { kind: 'unlisted', path };
      }
      return null;
    },
  };
}
