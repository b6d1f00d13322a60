// The workspace catalogue: commands whose only lasting effect is one that loses nothing.
// They create files or directories that do not exist yet, append, touch, move a file to a
// new name, record a local version-control change, or work in the sandbox's private /tmp,
// which vanishes when the call ends. Each rule reads the command's own words (the options
// that make a tool overwrite, delete or run something are not in its list) and names the
// paths it reads and writes; the policy checks every one before a call runs without a card.
import { basename } from 'node:path';
import { parseArgs } from 'node:util';

/** How a command changes a path. The policy decides which of these a path may take. */
export type TargetMode =
  /** A file created; it must not exist yet. */
  | 'create'
  /** Data added at the end; nothing already there is lost. */
  | 'append'
  /** A directory made; an existing one is left as it is. */
  | 'mkdir'
  /** Times or permissions changed, or an empty file created: no content is lost. */
  | 'touch'
  /** Moved away to another name (the destination is a `create`). */
  | 'move'
  /** Deleted: only ever allowed in the sandbox's private /tmp. */
  | 'remove';

export interface WorkspaceTarget {
  readonly path: string;
  readonly mode: TargetMode;
}

/** What a command does to files, read off its words. */
export interface WorkspaceEffects {
  readonly reads: readonly string[];
  readonly targets: readonly WorkspaceTarget[];
  /** It changes the version-control repository of the working directory (git add, commit ...). */
  readonly repository: boolean;
}

/** Whether a path is an existing directory; cp and mv put a file inside one. */
export type IsDirectory = (path: string) => boolean;

/** One workspace rule. */
export interface WorkspaceRuleSpec {
  /** The name the policy reports: `workspace: <name>`. */
  readonly name: string;
  readonly binary: string;
  /** The command's effects given its argument words, or null when it does something else. */
  readonly effects: (args: readonly string[], isDirectory: IsDirectory) => WorkspaceEffects | null;
  readonly examples: { readonly match: readonly string[]; readonly no_match: readonly string[] };
}

interface Options {
  readonly flags?: readonly string[];
  readonly valued?: readonly string[];
}

interface ParsedWords {
  readonly values: Readonly<Record<string, string | boolean | undefined>>;
  readonly operands: readonly string[];
}

/**
 * The words as getopt reads them (node's util.parseArgs: clusters, `--x=v`, `--`), or null when
 * an option is not in the rule's list. Options are named by their spelling: `-p`, `--parents`.
 */
function words(args: readonly string[], options: Options): ParsedWords | null {
  const spec: Record<string, { type: 'boolean' | 'string'; short?: string }> = {};
  const add = (spelling: string, type: 'boolean' | 'string'): void => {
    if (spelling.startsWith('--')) spec[spelling.slice(2)] = { type };
    else spec[`short${spelling.slice(1)}`] = { type, short: spelling.slice(1) };
  };
  for (const flag of options.flags ?? []) add(flag, 'boolean');
  for (const flag of options.valued ?? []) add(flag, 'string');
  try {
    const parsed = parseArgs({
      args: [...args],
      options: spec,
      strict: true,
      allowPositionals: true,
    });
    const values: Record<string, string | boolean | undefined> = {};
    for (const [key, value] of Object.entries(parsed.values)) {
      const spelling = key.startsWith('short') ? `-${key.slice(5)}` : `--${key}`;
      values[spelling] = Array.isArray(value) ? undefined : value;
    }
    return { values, operands: parsed.positionals };
  } catch {
    return null;
  }
}

const NONE: WorkspaceEffects = { reads: [], targets: [], repository: false };

function effects(partial: Partial<WorkspaceEffects>): WorkspaceEffects {
  return { ...NONE, ...partial };
}

/** cp/mv destinations: the new name, or the same name inside an existing directory. */
function destinations(
  sources: readonly string[],
  dest: string,
  isDirectory: IsDirectory,
): string[] | null {
  if (isDirectory(dest)) return sources.map((source) => `${dest}/${basename(source)}`);
  return sources.length === 1 ? [dest] : null;
}

function copyOrMove(moves: boolean) {
  return (args: readonly string[], isDirectory: IsDirectory): WorkspaceEffects | null => {
    // Only options that change how much is copied; -f, -b, -u, -t, -l, -s and friends are out.
    const parsed = words(args, {
      flags: moves
        ? ['-n', '--no-clobber', '-v', '--verbose']
        : ['-r', '-R', '--recursive', '-a', '--archive', '-p', '-n', '--no-clobber', '-v'],
    });
    if (parsed === null || parsed.operands.length < 2) return null;
    const sources = parsed.operands.slice(0, -1);
    const dest = destinations(sources, parsed.operands.at(-1) as string, isDirectory);
    if (dest === null) return null;
    return effects({
      reads: moves ? [] : sources,
      targets: [
        ...(moves ? sources.map((path) => ({ path, mode: 'move' as const })) : []),
        ...dest.map((path) => ({ path, mode: 'create' as const })),
      ],
    });
  };
}

function mkdir(args: readonly string[]): WorkspaceEffects | null {
  const parsed = words(args, { flags: ['-p', '--parents', '-v', '--verbose'] });
  if (parsed === null || parsed.operands.length === 0) return null;
  return effects({ targets: parsed.operands.map((path) => ({ path, mode: 'mkdir' })) });
}

function touch(args: readonly string[]): WorkspaceEffects | null {
  const parsed = words(args, { flags: ['-c', '--no-create', '-a', '-m'] });
  if (parsed === null || parsed.operands.length === 0) return null;
  return effects({ targets: parsed.operands.map((path) => ({ path, mode: 'touch' })) });
}

function tee(args: readonly string[]): WorkspaceEffects | null {
  const parsed = words(args, { flags: ['-a', '--append', '-i', '-p'] });
  if (parsed === null) return null;
  const mode = parsed.values['-a'] === true || parsed.values['--append'] === true;
  return effects({
    targets: parsed.operands.map((path) => ({ path, mode: mode ? 'append' : 'create' })),
  });
}

// Plain permission bits only: setuid, setgid and sticky (s, t, 4000, 2000, 1000) are out, and so
// is -R, which reaches every file below.
const PLAIN_MODE = /^(?:[0-7]{3}|[ugoa]*[-+=][rwxX]+(?:,[ugoa]*[-+=][rwxX]+)*)$/;

function chmod(args: readonly string[]): WorkspaceEffects | null {
  const parsed = words(args, { flags: ['-v', '--verbose', '-c', '--changes'] });
  const [mode, ...paths] = parsed?.operands ?? [];
  if (mode === undefined || paths.length === 0 || !PLAIN_MODE.test(mode)) return null;
  return effects({ targets: paths.map((path) => ({ path, mode: 'touch' })) });
}

// dd's operands are key=value; conv=, seek= and oflag= change how an existing file is written.
const DD_KEYS = new Set(['if', 'of', 'bs', 'ibs', 'obs', 'count', 'skip', 'status']);

function dd(args: readonly string[]): WorkspaceEffects | null {
  const pairs = args.map((arg) => arg.split('='));
  if (!pairs.every((pair) => pair.length === 2 && DD_KEYS.has(pair[0] as string))) return null;
  const value = (key: string): string | undefined => pairs.find((p) => p[0] === key)?.[1];
  const output = value('of');
  const input = value('if');
  if (output === undefined || output === '' || input === '') return null;
  return effects({
    reads: input === undefined ? [] : [input],
    targets: [{ path: output, mode: 'create' }],
  });
}

// tar that creates an archive: one bundle of c, v, z, j, J and f (last, its value next).
function tar(args: readonly string[]): WorkspaceEffects | null {
  const [bundle, archive, ...sources] = args;
  if (bundle === undefined || archive === undefined || sources.length === 0) return null;
  if (!/^-?[cvzjJ]*f$/.test(bundle) || !bundle.includes('c')) return null;
  if (sources.some((source) => source.startsWith('-'))) return null;
  return effects({ reads: sources, targets: [{ path: archive, mode: 'create' }] });
}

// Deleting only counts here when the policy finds every path in the sandbox's private /tmp.
function remove(flags: readonly string[], valued: readonly string[] = []) {
  return (args: readonly string[]): WorkspaceEffects | null => {
    const parsed = words(args, { flags, valued });
    if (parsed === null || parsed.operands.length === 0) return null;
    return effects({ targets: parsed.operands.map((path) => ({ path, mode: 'remove' })) });
  };
}

// git's global options that run programs or move the repository are never in a rule: only
// `git <subcommand>` with the subcommand first is matched.
function gitSubcommand(
  sub: string,
  options: Options,
  check: (parsed: ParsedWords) => readonly string[] | null,
) {
  return (args: readonly string[]): WorkspaceEffects | null => {
    if (args[0] !== sub) return null;
    const parsed = words(args.slice(1), options);
    const reads = parsed === null ? null : check(parsed);
    return reads === null ? null : effects({ reads, repository: true });
  };
}

const GIT_ADD = gitSubcommand(
  'add',
  { flags: ['-A', '--all', '-u', '--update', '-v', '--verbose', '-N', '--intent-to-add'] },
  (parsed) => parsed.operands,
);

// A message is required: without one git opens an editor, which has no terminal here.
// --amend and --fixup rewrite or reuse history; -c/-C reuse another commit's message.
const GIT_COMMIT = gitSubcommand(
  'commit',
  {
    flags: ['-a', '--all', '-q', '--quiet', '-v', '-s', '--signoff', '--allow-empty'],
    valued: ['-m', '--message', '-F', '--file'],
  },
  (parsed) => {
    const file = parsed.values['-F'] ?? parsed.values['--file'];
    const message = parsed.values['-m'] ?? parsed.values['--message'];
    if (message === undefined && file === undefined) return null;
    return [...(typeof file === 'string' ? [file] : []), ...parsed.operands];
  },
);

// A new branch from the current state: the working tree and its changes stay as they are.
function newBranch(sub: string, flag: string) {
  return (args: readonly string[]): WorkspaceEffects | null => {
    if (args.length !== 3 || args[0] !== sub || args[1] !== flag) return null;
    return (args[2] as string).startsWith('-') ? null : effects({ repository: true });
  };
}

// git stash (push) keeps the changes in the stash; pop, drop and clear are not here.
const GIT_STASH = gitSubcommand('stash', { flags: [], valued: ['-m', '--message'] }, (parsed) =>
  parsed.operands.length === 0 || (parsed.operands.length === 1 && parsed.operands[0] === 'push')
    ? []
    : null,
);

function git(name: string, fn: WorkspaceRuleSpec['effects'], match: string, noMatch: string) {
  return {
    name: `git ${name}`,
    binary: 'git',
    effects: fn,
    examples: { match: [match], no_match: [noMatch] },
  };
}

/** The built-in workspace rules. */
export const BUILT_IN_WORKSPACE: readonly WorkspaceRuleSpec[] = [
  {
    name: 'mkdir',
    binary: 'mkdir',
    effects: mkdir,
    examples: { match: ['mkdir -p build/out'], no_match: ['mkdir -m 777 build'] },
  },
  {
    name: 'touch',
    binary: 'touch',
    effects: touch,
    examples: { match: ['touch src/.gitkeep'], no_match: ['touch -r ref.txt a.txt'] },
  },
  {
    name: 'chmod',
    binary: 'chmod',
    effects: chmod,
    examples: { match: ['chmod +x scripts/run.sh', 'chmod 644 a b'], no_match: ['chmod u+s tool'] },
  },
  {
    name: 'cp',
    binary: 'cp',
    effects: copyOrMove(false),
    examples: { match: ['cp -r src backup'], no_match: ['cp -f a.txt b.txt'] },
  },
  {
    name: 'mv',
    binary: 'mv',
    effects: copyOrMove(true),
    examples: { match: ['mv draft.md notes.md'], no_match: ['mv -f draft.md notes.md'] },
  },
  {
    name: 'tee',
    binary: 'tee',
    effects: tee,
    examples: { match: ['tee -a build.log'], no_match: ['tee --output-error=exit x'] },
  },
  {
    name: 'dd',
    binary: 'dd',
    effects: dd,
    examples: {
      match: ['dd if=/dev/zero of=disk.img bs=1M count=8'],
      no_match: ['dd if=a of=b conv=notrunc'],
    },
  },
  {
    name: 'tar create',
    binary: 'tar',
    effects: tar,
    examples: { match: ['tar czf dist.tgz dist'], no_match: ['tar xzf dist.tgz'] },
  },
  {
    name: 'rm in /tmp',
    binary: 'rm',
    effects: remove(['-r', '-R', '--recursive', '-f', '--force', '-v', '-d', '--dir']),
    examples: { match: ['rm -rf /tmp/build'], no_match: ['rm --no-preserve-root -rf /tmp/x'] },
  },
  {
    name: 'shred in /tmp',
    binary: 'shred',
    effects: remove(['-u', '-z', '-v', '-f'], ['-n', '--iterations']),
    examples: { match: ['shred -u /tmp/notes.txt'], no_match: ['shred --random-source=x f'] },
  },
  {
    name: 'rmdir in /tmp',
    binary: 'rmdir',
    effects: remove(['-p', '--parents', '-v']),
    examples: { match: ['rmdir /tmp/empty'], no_match: ['rmdir --ignore-fail-on-non-empty x'] },
  },
  git('add', GIT_ADD, 'git add -A', 'git add -p src'),
  git('commit', GIT_COMMIT, 'git commit -am "wip: login form"', 'git commit --amend'),
  git(
    'checkout -b',
    newBranch('checkout', '-b'),
    'git checkout -b feature/x',
    'git checkout -- src',
  ),
  git('switch -c', newBranch('switch', '-c'), 'git switch -c feature/x', 'git switch main'),
  git('stash', GIT_STASH, 'git stash push -m "before rebase"', 'git stash drop'),
];
