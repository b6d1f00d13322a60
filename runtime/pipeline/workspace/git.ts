// Workspace rules for local git changes: staging and unstaging, committing with a message (or
// rewording the last commit, which the reflog keeps), moving the branch back with its changes
// kept (`reset --soft`), a rename to a new name, a new branch, a new tag, a stash,
// a new repository in a new directory. Nothing that drops commits, talks to a remote or discards
// changes.
import { copyOrMove, withPlainPaths } from './files.ts';
import {
  effects,
  words,
  type IsDirectory,
  type Options,
  type ParsedWords,
  type WorkspaceEffects,
  type WorkspaceRuleSpec,
} from './spec.ts';

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

const GIT_ADD_OPTIONS: Options = {
  flags: ['-A', '--all', '-u', '--update', '-v', '--verbose', '-N', '--intent-to-add'],
};
const GIT_ADD_WORDS = gitSubcommand('add', GIT_ADD_OPTIONS, (parsed) => parsed.operands);

/** The whole work tree, as a pathspec from anywhere in it. */
const WHOLE_TREE = [':/'];

// git add stages what its pathspecs match, untracked files too unless -u; -A or -u without one
// stage the whole tree. (-N records an untracked file's name only, but git diff then prints it.)
function gitAdd(args: readonly string[]): WorkspaceEffects | null {
  const found = GIT_ADD_WORDS(args);
  if (found === null) return null;
  const values = words(args.slice(1), GIT_ADD_OPTIONS)?.values ?? {};
  const update = values['-u'] === true || values['--update'] === true;
  const pathspecs = found.reads.length > 0 ? found.reads : WHOLE_TREE;
  return { ...found, stages: [{ pathspecs, untracked: !update }] };
}

// A message is required: without one git opens an editor, which has no terminal here.
// --amend replaces the last commit with a new one (the old stays in the reflog, and a pushed one
// can only be replaced on the remote by a push --force, which asks): with a message, or with
// --no-edit to keep it. --fixup and -c/-C reuse another commit's message.
const GIT_COMMIT_OPTIONS: Options = {
  flags: [
    '-a',
    '--all',
    '-q',
    '--quiet',
    '-v',
    '-s',
    '--signoff',
    '--allow-empty',
    '--amend',
    '--no-edit',
  ],
  valued: ['-m', '--message', '-F', '--file'],
};
const GIT_COMMIT_WORDS = gitSubcommand('commit', GIT_COMMIT_OPTIONS, (parsed) => {
  const file = parsed.values['-F'] ?? parsed.values['--file'];
  const message = parsed.values['-m'] ?? parsed.values['--message'];
  const kept = parsed.values['--no-edit'] === true && parsed.values['--amend'] === true;
  if (message === undefined && file === undefined && !kept) return null;
  return [...(typeof file === 'string' ? [file] : []), ...parsed.operands];
});

// --amend leaves the old commit to the reflog. -a commits every tracked file's edit, paths
// commit those files' edits as they are in the work tree.
function gitCommit(args: readonly string[]): WorkspaceEffects | null {
  const found = GIT_COMMIT_WORDS(args);
  if (found === null) return null;
  const parsed = words(args.slice(1), GIT_COMMIT_OPTIONS);
  const all = parsed?.values['-a'] === true || parsed?.values['--all'] === true;
  const paths = parsed?.operands ?? [];
  const stages =
    all || paths.length > 0 ? [{ pathspecs: all ? WHOLE_TREE : paths, untracked: false }] : [];
  return { ...found, leavesCommits: args.includes('--amend'), stages };
}

// git mv to a new name, as mv does it (mv's checks of what is moved and where), plus the index.
// git refuses a destination that exists unless -f, and its -n is a dry run, -k skips errors:
// only -v is taken.
function gitMove(args: readonly string[], isDirectory: IsDirectory): WorkspaceEffects | null {
  if (args[0] !== 'mv' || args.slice(1).some((word) => word.startsWith('-') && word !== '-v'))
    return null;
  const moved = copyOrMove(true)(args.slice(1), isDirectory);
  return moved === null ? null : { ...moved, repository: true };
}

// A new branch from the current state: the working tree and its changes stay as they are.
function newBranch(sub: string, flag: string) {
  return (args: readonly string[]): WorkspaceEffects | null => {
    if (args.length !== 3 || args[0] !== sub || args[1] !== flag) return null;
    return (args[2] as string).startsWith('-') ? null : effects({ repository: true });
  };
}

// A new tag on HEAD or a named commit: git refuses a name that exists (-f is not here), so no
// tag is lost. An annotated tag needs its message (without one git opens an editor); signing
// (-s, -u) runs gpg, and -d deletes.
function gitTag(args: readonly string[]): WorkspaceEffects | null {
  if (args[0] !== 'tag') return null;
  const parsed = words(args.slice(1), {
    flags: ['-a', '--annotate'],
    valued: ['-m', '--message'],
  });
  if (parsed === null) return null;
  const [name, commit, ...more] = parsed.operands;
  if (name === undefined || more.length > 0) return null;
  if ([name, commit].some((word) => word?.startsWith('-'))) return null;
  const annotated = parsed.values['-a'] === true || parsed.values['--annotate'] === true;
  const message = parsed.values['-m'] ?? parsed.values['--message'];
  return annotated && message === undefined ? null : effects({ repository: true });
}

// Unstaging (`git restore --staged PATHS`): the index takes HEAD's version, the work tree keeps
// every change. -W/--worktree would put the files back, --source another commit's, -p asks.
const GIT_UNSTAGE = gitSubcommand(
  'restore',
  { flags: ['--staged', '-S', '-q', '--quiet'] },
  (parsed) =>
    (parsed.values['--staged'] === true || parsed.values['-S'] === true) &&
    parsed.operands.length > 0
      ? parsed.operands
      : null,
);

// `git reset --soft REV` moves the branch back and keeps the index and the work tree as they are:
// the commits it leaves stay in the reflog (where there is none, it asks: policy.ts). Any other reset (mixed, --hard, --keep, paths) is
// not here.
function gitSoftReset(args: readonly string[]): WorkspaceEffects | null {
  if (args[0] !== 'reset' || args[1] !== '--soft' || args.length > 3) return null;
  const target = args[2];
  return target !== undefined && target.startsWith('-')
    ? null
    : effects({ repository: true, leavesCommits: true });
}

// git stash (push) keeps the changes in the stash; pop, drop and clear are not here.
const GIT_STASH = gitSubcommand('stash', { flags: [], valued: ['-m', '--message'] }, (parsed) =>
  parsed.operands.length === 0 || (parsed.operands.length === 1 && parsed.operands[0] === 'push')
    ? []
    : null,
);

// A new repository in a directory that does not exist yet: git makes it and fills only its
// .git from its own templates. `git init` of an existing directory (the home, a project) is
// not here: a .git there turns every file below into what `git add -A` stages.
function gitInit(args: readonly string[]): WorkspaceEffects | null {
  if (args[0] !== 'init') return null;
  const parsed = words(args.slice(1), {
    flags: ['-q', '--quiet'],
    valued: ['-b', '--initial-branch'],
  });
  const [dir, ...more] = parsed?.operands ?? [];
  if (dir === undefined || more.length > 0) return null;
  return effects({ targets: [{ path: dir, mode: 'create' }] });
}

function git(
  name: string,
  fn: WorkspaceRuleSpec['effects'],
  match: string | readonly string[],
  ...noMatch: string[]
) {
  return {
    name: `git ${name}`,
    binary: 'git',
    // `git commit -F /dev/stdin/notes < dir` would commit a file no check of its text saw.
    effects: withPlainPaths(fn),
    examples: { match: typeof match === 'string' ? [match] : match, no_match: noMatch },
  };
}

/** The git rules. */
export const GIT_WORKSPACE: readonly WorkspaceRuleSpec[] = [
  git('add', gitAdd, 'git add -A', 'git add -p src'),
  git(
    'commit',
    gitCommit,
    [
      'git commit -am "wip: login form"',
      'git commit --amend -m "Add tests"',
      'git commit --amend --no-edit',
    ],
    'git commit --amend',
    'git commit --no-edit',
    'git commit --amend --fixup HEAD~1',
    'git commit -F /dev/stdin/x',
  ),
  git('restore --staged', GIT_UNSTAGE, 'git restore --staged src/a.js', 'git restore src/a.js'),
  git('reset --soft', gitSoftReset, 'git reset --soft HEAD~1', 'git reset --hard HEAD~1'),
  git('mv', gitMove, 'git mv src/util.js src/strings.js', 'git mv -f a.js b.js', 'git mv a.js'),
  git(
    'checkout -b',
    newBranch('checkout', '-b'),
    'git checkout -b feature/x',
    'git checkout -- src',
  ),
  git('switch -c', newBranch('switch', '-c'), 'git switch -c feature/x', 'git switch main'),
  git(
    'tag',
    gitTag,
    'git tag -a v1.0.0 -m "First release"',
    'git tag -f v1.0.0',
    'git tag -d v1.0.0',
    'git tag -a v1.0.0',
    'git tag -s v1.0.0 -m signed',
  ),
  git('stash', GIT_STASH, 'git stash push -m "before rebase"', 'git stash drop'),
  git('init', gitInit, 'git init -b main newproj', 'git init', 'git init --template=t newproj'),
];
