// What a git command could print from a repository that no check of its words sees: the bytes
// of a protected file its history holds (a dotfiles repository that committed ~/.netrc, a
// ~/.config repository with gh/hosts.yml), or a login in its config (a remote URL with a
// token, a CI authorization header). The sandbox hides files, not the objects git keeps of them.
import { basename, join } from 'node:path';
import type { Protection } from '../../constitution/protected.ts';
import { configuredProgram } from '../../constitution/git-programs.ts';
import { binarySecretStoreIn } from '../../constitution/binary-secret-stores.ts';
import { credentialFileByName } from '../../constitution/credential-files.ts';
import {
  credentialInFile,
  encodedCredentialIn,
  GIT_CONFIG_NAMES,
  storedCredentialIn,
} from '../../constitution/stored-credentials.ts';

/** A repository's contents as its objects name them. */
export interface RepositoryContents {
  /** The work tree's top, or null when git runs in a bare repository. */
  readonly top: string | null;
  /** The path of every tree and blob its history, reflogs and index hold (relative to the top). */
  readonly paths: readonly string[];
}

/** Reads repositories and small config files; injected into the path oracle (it reads disks). */
export interface RepositoryReader {
  /** The repository git would use in `dir`: its contents, 'none' outside one, null if unknown. */
  contents(dir: string): RepositoryContents | 'none' | null;
  /** `git config --list --includes` as a git command in `dir` sees it; null when unknown. */
  config(dir: string): string | null;
  /**
   * The text of every file version and message the repository in `dir` stores (any commit, the
   * index, unreachable objects), at most `maxBytes` in all: 'too-large' past them, 'none' outside
   * a repository, null when git could not tell.
   */
  storedText(dir: string, maxBytes: number): string | 'too-large' | 'none' | null;
  /** As storedText, the messages only: every commit's and annotated tag's (`git log` prints them). */
  messageText(dir: string, maxBytes: number): string | 'too-large' | 'none' | null;
  /**
   * The tracked files of the repository in `dir` whose work tree differs from the index (what
   * `git diff` prints of the work tree, absolute paths); 'none' outside a repository, null when
   * git could not tell.
   */
  editedFiles(dir: string): readonly string[] | 'none' | null;
  /**
   * The work tree files `git add PATHSPECS` run in `dir` would stage (absolute paths): edited
   * tracked ones, and with `untracked` the unignored files git does not track; 'none' outside a
   * repository, null when git could not tell.
   */
  stagedFiles(
    dir: string,
    pathspecs: readonly string[],
    untracked: boolean,
  ): readonly string[] | 'none' | null;
  /** The text of a regular file of at most `maxBytes`; 'too-large' past them, null when none. */
  textUpTo(path: string, maxBytes: number): string | 'too-large' | null;
  /** True when the file has more than one name (a hard link): its other names are unknown. */
  multiNamed(path: string): boolean;
  /** True when `path` is a regular file (links followed). */
  isFile(path: string): boolean;
  /** True when `path` is a regular file of more than `bytes` (links followed). */
  largerThan(path: string, bytes: number): boolean;
}

/** What of a repository a command prints: file contents from its objects, or its config. */
export type RepositoryPart = 'objects' | 'config';

/** The protection a path has by its text alone (a name in a repository has no links). */
export type ProtectionByText = (path: string) => Protection | null;

const UNKNOWN: Protection = {
  name: 'a repository git could not list in time',
  why: 'what its history holds is unknown, so it may hold a protected file',
};

/** The family a stored credential falls in (its shape's name says which). */
export function credentialProtection(shape: string): Protection {
  return {
    name: `a file holding a credential (${shape})`,
    why: 'a key, a token or a login in a file is the credential itself, wherever the file lives',
  };
}

// chezmoi's source names: attributes before the name (private_, executable_ …), `dot_` for a
// leading dot, `.tmpl` after it (`private_dot_config/gh/hosts.yml` is `.config/gh/hosts.yml`).
const CHEZMOI_ATTRIBUTES =
  /^(?:(?:after|before|create|empty|encrypted|exact|executable|literal|modify|once|onchange|private|readonly|remove|run|symlink)_)+/;

function targetName(segment: string): string {
  return segment
    .replace(CHEZMOI_ATTRIBUTES, '')
    .replace(/^dot_/, '.')
    .replace(/\.tmpl$/, '');
}

/**
 * Where a path a repository tracks would be protected: in its own work tree, and, for a repository
 * that mirrors a home or a system tree (dotfiles, stow packages, an /etc backup), at every tail of
 * it placed in the home and at the root (`aws/.aws/credentials` is ~/.aws/credentials), its
 * names read as a dotfile manager stores them too.
 */
function trackedProtection(
  path: string,
  top: string | null,
  home: string | null,
  byText: ProtectionByText,
): Protection | null {
  const managed = path.split('/').map(targetName).join('/');
  return (
    placedProtection(path, top, home, byText) ??
    (managed === path ? null : placedProtection(managed, null, home, byText)) ??
    credentialByItsName(managed)
  );
}

/** A tracked file that holds a credential wherever it is (a committed .env, a keystore). */
function credentialByItsName(path: string): Protection | null {
  const file = credentialFileByName(path);
  return file === null ? null : { name: `a tracked ${file.name}`, why: file.why };
}

function placedProtection(
  path: string,
  top: string | null,
  home: string | null,
  byText: ProtectionByText,
): Protection | null {
  const segments = path.split('/');
  const places = top === null ? [] : [join(top, path)];
  for (let start = 0; start < segments.length; start += 1) {
    const tail = segments.slice(start).join('/');
    places.push(`/${tail}`);
    if (home !== null) places.push(join(home, tail));
  }
  for (const place of places) {
    const protection = byText(place);
    if (protection !== null) return protection;
  }
  return null;
}

/** Why a git command in `dir` that prints `part` of its repository could show a secret; null when it cannot. */
export function repositoryExposure(
  dir: string,
  part: RepositoryPart,
  home: string,
  reader: RepositoryReader,
  byText: ProtectionByText,
): Protection | null {
  if (part === 'config') {
    const config = reader.config(dir);
    if (config === null) return UNKNOWN;
    const credential = storedCredentialIn(config);
    return credential === null ? null : credentialProtection(credential.name);
  }
  const contents = reader.contents(dir);
  if (contents === 'none') return null;
  if (contents === null) return UNKNOWN;
  // A home that is itself protected (root's /root) says nothing about the names placed in it.
  const mirrored = byText(home) === null ? home : null;
  for (const path of contents.paths) {
    const protection = trackedProtection(path, contents.top, mirrored, byText);
    if (protection !== null) return protection;
  }
  return null;
}

/**
 * The credential the text of the file `path` holds (a git config's by its own shapes; a file of
 * several names as an env file too; a tool's config in the home (`toolConfig`) by its settings
 * too), or null.
 */
export function credentialTextProtection(
  path: string,
  text: string,
  multiNamed: boolean,
  toolConfig = false,
): Protection | null {
  const name = basename(path);
  const credential =
    binarySecretStoreIn(text) ??
    (GIT_CONFIG_NAMES.has(name)
      ? storedCredentialIn(text)
      : credentialInFile(name, text, multiNamed, toolConfig)) ??
    encodedCredentialIn(text);
  return credential === null ? null : credentialProtection(credential.name);
}

/** Why a git command run in `dir` could start a program its config names; null when none. */
export function gitProgramProtection(dir: string, reader: RepositoryReader): Protection | null {
  const config = reader.config(dir);
  if (config === null) return UNKNOWN;
  const found = configuredProgram(config);
  return found === null
    ? null
    : {
        name: `a program the repository's git config starts (${found.key})`,
        why: 'a repository that came with its own .git can name any program for git to run',
      };
}
