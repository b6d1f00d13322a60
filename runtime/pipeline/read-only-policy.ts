// The policy's use of the read-only catalogue: a shell call whose every command is a known
// read-only one, with every path argument inside scope and outside the guard, runs without
// a card. The catalogue itself (rules and examples) lives with the parser.
import { join, relative } from 'node:path';
import type { Config } from '../config.ts';
import type { ParsedShell } from '../shell/parse.ts';
import { isUnder } from '../vaglio/normalize-path.ts';
import { unreadTextStaysWhole } from '../../constitution/unread-text.ts';
import { RESHAPING_CONFIG } from '../../constitution/git-stored-text.ts';
import {
  loadCatalogue,
  matchReadOnly,
  type PathCheck,
  type PathUse,
  type ReadOnlyCatalogue,
} from './read-only.ts';
import type { ScopeInput } from './check-hints.ts';
import {
  climbsThroughName,
  hiddenSegment,
  type RealPath,
  type ResolvedRoots,
} from './scope-paths.ts';

export type ReadOnlyMatcher = ReadOnlyCatalogue;

const ANY_FORM = { anyForm: true } as const;

/** A shell call's scope, with where it runs and the home, both resolved once per call. */
export interface ShellScope extends Omit<ScopeInput, 'shell'> {
  readonly cwd: string;
  readonly home: string;
  readonly realHome: string;
  readonly realPath: RealPath;
  readonly roots: ResolvedRoots;
  /** The names in a directory, or null: what a glob there can expand to. */
  readonly namesIn: (dir: string) => readonly string[] | null;
}

/** The catalogue the config asks for (built-in plus the user's rules), or null when disabled. */
export function readOnlyMatcherFor(config: Config): ReadOnlyMatcher | null {
  const settings = config.approvals.read_only_catalogue;
  return settings.enabled ? loadCatalogue(settings.extra) : null;
}

/**
 * True when what a glob may expand to, or a tree read whole, is the user's own files: strictly
 * below a write root (the workspace: ~ and /tmp by default), nothing hidden from the word's text
 * down to it (its symlinks resolved), and a tree never holding the home. The guard judges only
 * the text, and forbids ~/.config/app/credentials.env by full name, which neither ~/.config/app/cred*
 * nor `grep -r TOKEN .config` spells; system trees (etc/ssl from /) are not the user's.
 */
function reachesOnlyWorkspace(
  word: string,
  path: string,
  use: PathUse,
  scope: ShellScope,
): boolean {
  if (hiddenSegment(word)) return false;
  const resolved = scope.paths.real(path);
  if (use.tree === true && [scope.home, scope.realHome].some((home) => isUnder(home, resolved)))
    return false;
  // A tree is read whole: nothing below it may be a protected place (~/dotfiles/.netrc). A
  // comparer (diff -r) follows the links to directories below it too.
  const followLinks = use.opensInside === true;
  if (use.tree === true && treeBlocked(resolved, followLinks, use, scope)) return false;
  return scope.roots.write.some(
    (root) =>
      resolved !== root && isUnder(resolved, root) && !hiddenSegment(relative(root, resolved)),
  );
}

/** A tree read whole meets something below its top: a credential file too, unless it is masked. */
function treeBlocked(dir: string, followLinks: boolean, use: PathUse, scope: ShellScope): boolean {
  if (use.credentialsMasked === true) return 'obstacle' in scope.paths.maskableCredentials(dir);
  return scope.paths.treeObstacle(dir, { followLinks }) !== null;
}

/**
 * True when the line's other commands keep each line git prints whole (unread-text.ts): the
 * output check then sees every line of a history too large for the decision to read.
 */
function gitTextStaysWhole(line: ParsedShell | undefined): boolean {
  return line !== undefined && unreadTextStaysWhole(line, (command) => command.binary === 'git');
}

/**
 * The check for a path a shell command only reads, resolved from the call's working directory:
 * the guard, then the read roots. A `..` after a name is refused: through a symlink it climbs
 * from where the link leads (/dev/fd/../root is /), which the guard's text cannot know. `line`,
 * the whole line the command is in, says what may see what it prints.
 */
export function readPathCheck(scope: ShellScope, line?: ParsedShell): PathCheck {
  // A history too large to read may pass only to filters that keep lines whole.
  const history = { anyForm: !gitTextStaysWhole(line) };
  // Messages printed whole, each line through the output check, which cuts a token by the shape
  // the decision would look for: read only where something may reshape them.
  const messagesClear = (dir: string, reshaped: boolean): boolean =>
    (!reshaped && !history.anyForm && !RESHAPING_CONFIG.test(scope.paths.gitConfig(dir) ?? '')) ||
    scope.paths.messageCredential(dir, ANY_FORM) === null;
  return (word, given) => {
    if (climbsThroughName(word)) return false;
    const path = scope.paths.absolute(word.trim(), scope.cwd);
    // A directory that the command opens inside (diff -N DIR DIR prints every file in both) is
    // read as the tree it is, whatever the command's options say.
    const use: PathUse | undefined =
      given?.opensInside === true && scope.namesIn(path) !== null
        ? { ...given, tree: true }
        : given;
    if (use?.repository === 'programs') return scope.paths.gitProgram(path) === null;
    if (use?.repository === 'stored-text')
      return (
        scope.paths.historyCredential(path, { ...history, workTree: use.workTree !== false }) ===
        null
      );
    if (use?.repository === 'messages') return messagesClear(path, use.reshaped === true);
    if (use?.database === true && scope.paths.storedSql(path) !== null) return false;
    if (use?.repository !== undefined)
      return scope.paths.repositoryExposure(path, use.repository) === null;
    // A git config holding a login, read as a file or inside a tree read whole (grep -r . from
    // a work tree's top reads .git/config).
    // A shell line may print what it reads in any form (`| rev`): a file too large to judge asks.
    const configs = use?.tree === true ? [path, join(path, '.git', 'config')] : [path];
    if (configs.some((config) => scope.paths.storedCredential(config, ANY_FORM) !== null))
      return false;
    // By its text and where its links lead (secrets -> ~/.config/app): a raw device named only
    // for its metadata (ls /dev/sda) passes as it does in the guard's own shell check.
    const reading = { metadataOnly: use?.deviceMetadata === true, read: true };
    if (scope.paths.protection(path, reading) !== null) return false;
    // A glob every match of which is a public key reaches only those (checked on disk now).
    const onlyPublicKeys = use?.glob === true && scope.paths.publicKey(path);
    if (
      (use?.glob === true || use?.tree === true) &&
      !onlyPublicKeys &&
      !reachesOnlyWorkspace(word, path, use, scope)
    )
      return false;
    // A link among the names a glob matches may lead to a protected file its text never names.
    if (
      use?.glob === true &&
      scope.paths.globObstacle(path, {
        tree: use.tree === true || use.opensInside === true,
        ...ANY_FORM,
      }) !== null
    )
      return false;
    // A glob may match a symlink that leads out of the read roots, which no check of the
    // pattern's text can see: with read roots set, a glob asks.
    if (use?.glob === true && scope.roots.read !== undefined) return false;
    return scope.paths.inRoots(path, 'read');
  };
}

/** The name of the catalogue rule that makes this shell call read-only, or null. */
export function readOnlyRuleFor(
  shell: ParsedShell,
  catalogue: ReadOnlyMatcher,
  scope: ShellScope,
): string | null {
  return matchReadOnly(shell, catalogue, readPathCheck(scope, shell))?.rule ?? null;
}
