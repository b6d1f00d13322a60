// Unpacking an archive (`tar -xzf notes.tgz`, `unzip manual.zip -d manual`) as the workspace
// tier judges any write: the member list is read when the call is decided, and the call runs
// without a card only when every member is a plain file or directory with a plain relative
// name (no absolute name, no `..`, nothing hidden: an archive could plant .git/config with an
// fsmonitor, .envrc or a hook) that would be a new path inside roots.write. The decision is
// bound to the archive it read (grant.pinned): the run refuses an archive that changed since.
import { join } from 'node:path';
import { isUnder } from '../../vaglio/normalize-path.ts';
import type { ArchiveFormat, ArchiveListing } from '../../../executors/ops/archive-members.ts';
import type { ParsedShell, ShellCommand, ShellWord } from '../../shell/types.ts';
import { readPathCheck } from '../read-only-policy.ts';
import type { WorkspaceDecision, WorkspaceScope } from '../workspace/policy.ts';
import type { WorkspaceTarget } from '../workspace/spec.ts';
import { writableFor } from '../workspace/targets.ts';

/** Reads an archive's member list (executors/ops/archive-members.ts); injected, it reads files. */
export type ArchiveReader = (path: string, format: ArchiveFormat) => Promise<ArchiveListing | null>;

/** Most bytes an uncarded unpacking writes, all members together. */
const UNPACKED_LIMIT = 512 * 1024 * 1024;

/** What one command asks of an archive: unpack it into `into` (null: its cwd), or list it. */
interface ArchiveUse {
  readonly format: ArchiveFormat;
  readonly archive: string;
  readonly into: string | null;
  readonly lists: boolean;
}

/** The words as their text, or null when one is not literal (known only at run time). */
function literalWords(args: readonly ShellWord[]): string[] | null {
  return args.every((word) => word.literal) ? args.map((word) => word.text) : null;
}

/**
 * An archive name the program opens as the file it names: not stdin (`-`), an option, a remote
 * `host:file` (GNU tar runs rsh/ssh for it), or a pattern (unzip matches `*?[` itself).
 */
function plainArchiveName(name: string | undefined): name is string {
  return name !== undefined && name !== '' && !name.startsWith('-') && !/[:*?[\]\\]/.test(name);
}

/**
 * tar with one bundle of x or t, optional v, z, j and f last, its archive next, then at most
 * `-C DIR`: `tar -xzf notes.tgz -C notes`, `tar xf a.tar`, `tar -tzf a.tgz`.
 */
function tarUse(words: readonly string[]): ArchiveUse | null {
  const [bundle, archive, ...rest] = words;
  const letters = /^-?([xt])([vzj]*)f$/.exec(bundle ?? '');
  if (letters === null || !plainArchiveName(archive)) return null;
  const lists = letters[1] === 't';
  if (rest.length === 0) return { format: 'tar', archive, into: null, lists };
  if (rest.length !== 2 || rest[0] !== '-C' || lists || rest[1] === '') return null;
  return { format: 'tar', archive, into: rest[1] ?? null, lists };
}

/** unzip with at most -q/-qq and `-d DIR`, one archive and no member names; or `unzip -l`. */
function unzipUse(words: readonly string[]): ArchiveUse | null {
  let archive: string | undefined;
  let into: string | null = null;
  let lists = false;
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] as string;
    if (word === '-q' || word === '-qq') continue;
    if (word === '-l') lists = true;
    else if (word === '-d' && into === null && words[i + 1] !== undefined) {
      into = words[i + 1] as string;
      i += 1;
    } else if (archive === undefined && plainArchiveName(word)) archive = word;
    else return null;
  }
  if (archive === undefined || (lists && into !== null) || into === '') return null;
  return { format: 'zip', archive, into, lists };
}

/** The archive use a command spells, or null. */
function archiveUse(command: ShellCommand): ArchiveUse | null {
  if (command.redirects.length > 0 || command.assignments.length > 0) return null;
  if (command.wrappers.length > 0) return null;
  const words = literalWords(command.args);
  if (words === null) return null;
  if (command.binary === 'tar') return tarUse(words);
  if (command.binary === 'unzip') return unzipUse(words);
  return null;
}

/** An `ls` of names only (no options but -R, -1, -a-free sorting) of the places it lists. */
function lsOperands(command: ShellCommand | undefined): string[] | null {
  if (command?.binary !== 'ls' || command.redirects.length > 0) return null;
  if (command.wrappers.length > 0 || command.assignments.length > 0) return null;
  const words = literalWords(command.args);
  if (words === null) return null;
  const operands = words.filter((word) => !/^-[R1trS]+$/.test(word));
  return operands.length > 0 && operands.every((word) => !word.startsWith('-')) ? operands : null;
}

/**
 * The unpacking command of a line that is that command alone, or `mkdir -p DIR && COMMAND`
 * (then `made` is DIR as written, which must be the destination), either followed by `&& ls
 * PLACES` (`listed`: places that must be the destination or below it, whose names are the
 * members the decision read).
 */
function unpackingLine(shell: ParsedShell): {
  command: ShellCommand | null;
  made: string | null;
  listed: readonly string[];
} {
  const none = { command: null, made: null, listed: [] };
  const elements = shell.andChain?.length ?? 1;
  // Every element one command: `a && b`, never `a; b` or a pipe.
  if (shell.commands.length !== elements) return none;
  const listed = elements > 1 ? lsOperands(shell.commands.at(-1)) : null;
  const commands = listed === null ? shell.commands : shell.commands.slice(0, -1);
  const [first, second, ...rest] = commands;
  if (first === undefined || rest.length > 0) return none;
  if (second === undefined) return { command: first, made: null, listed: listed ?? [] };
  const words = literalWords(first.args);
  const plainMkdir =
    first.binary === 'mkdir' &&
    first.redirects.length === 0 &&
    first.wrappers.length === 0 &&
    words?.length === 2 &&
    words[0] === '-p' &&
    !(words[1] ?? '-').startsWith('-');
  return plainMkdir ? { command: second, made: words[1] ?? null, listed: listed ?? [] } : none;
}

/**
 * A member's name as a path below where it is unpacked, or null when it is absolute, climbs,
 * is hidden (a segment starting with `.`, past one leading `./`), or holds a backslash or a
 * control character. `''` is the destination itself (`./`).
 */
function memberPath(name: string): string | null {
  const trimmed = name.replace(/^\.\/+/, '').replace(/\/+$/, '');
  if (name.startsWith('/') || /[\\\p{Cc}]/u.test(name)) return null;
  if (trimmed === '' || trimmed === '.') return '';
  const segments = trimmed.split('/');
  if (segments.some((segment) => segment === '' || segment.startsWith('.'))) return null;
  return trimmed;
}

/** The writes an unpacking makes: the destination (when new) and every member, as new paths. */
function unpackTargets(
  listing: ArchiveListing,
  into: string,
  scope: WorkspaceScope,
): WorkspaceTarget[] | null {
  let total = 0;
  const targets: WorkspaceTarget[] = [];
  const destination = scope.paths.absolute(into, scope.cwd);
  if (!scope.isDirectory(destination)) {
    if (scope.entryExists(destination)) return null;
    targets.push({ path: destination, mode: 'mkdir' });
  }
  for (const member of listing.members) {
    const below = memberPath(member.name);
    if (below === null || member.kind === 'other') return null;
    if (below === '') {
      // `./` sets the destination's own mode and times: only on one this call makes.
      if (member.kind !== 'directory' || targets.length === 0) return null;
      continue;
    }
    total += member.size;
    const path = join(destination, below);
    // Every member a new path: nothing already there is replaced or entered.
    if (scope.entryExists(path) || total > UNPACKED_LIMIT) return null;
    targets.push({ path, mode: member.kind === 'directory' ? 'mkdir' : 'create' });
  }
  return targets;
}

/**
 * The workspace decision for a line that is one archive unpacking or listing, or null (it
 * asks): the archive a readable file outside every protected place, its members as above.
 */
export async function archiveDecision(
  shell: ParsedShell,
  scope: WorkspaceScope,
  readArchive: ArchiveReader,
): Promise<WorkspaceDecision | null> {
  const { command, made, listed } = unpackingLine(shell);
  if (command === null) return null;
  const use = archiveUse(command);
  if (use === null || !readPathCheck(scope)(use.archive)) return null;
  // What the trailing ls prints is the members' names, read when this is decided.
  const destination = scope.paths.absolute(use.into ?? '.', scope.cwd);
  // A place there before the call is listed as any ls of it would be.
  const listsMembers = listed.every((place) => {
    const path = scope.paths.absolute(place, scope.cwd);
    return isUnder(path, destination) && (!scope.entryExists(path) || readPathCheck(scope)(place));
  });
  if (!listsMembers || (use.lists && listed.length > 0)) return null;
  const allow = { tier: 'workspace', readOnlyWithin: [], replaces: false } as const;
  // A listing prints names and writes nothing.
  if (use.lists)
    return { ...allow, rule: `${use.format} list`, writable: [], written: [], pinned: [] };
  // tar -C needs the directory there already; unzip -d makes it.
  const into = use.into ?? '.';
  const madeFirst = made !== null && made === use.into;
  if (made !== null && !madeFirst) return null;
  if (
    use.format === 'tar' &&
    !madeFirst &&
    !scope.isDirectory(scope.paths.absolute(into, scope.cwd))
  )
    return null;
  const archive = scope.paths.absolute(use.archive, scope.cwd);
  const listing = await readArchive(archive, use.format);
  if (listing === null) return null;
  const targets = unpackTargets(listing, into, scope);
  const needs = targets === null ? null : writableFor(targets, scope);
  if (needs === null || needs.scratch) return null;
  return {
    ...allow,
    rule: `${use.format} extract`,
    writable: [...needs.dirs],
    written: needs.written,
    pinned: [{ path: archive, identity: listing.identity }],
  };
}
