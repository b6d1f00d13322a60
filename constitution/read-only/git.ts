// Read-only git subcommands. Git's global options that write a file, run a program or change
// where git finds its programs are refused everywhere.
import type { ReadOnlyRuleSpec } from './spec.ts';

type Spec = ReadOnlyRuleSpec;

// --output writes a file; -c core.pager=... and --ext-diff run programs; --exec-path and the
// pack options move where git looks for its helpers; --git-dir and --work-tree move the
// repository away from where the command runs, which is the one the caller's check clears.
const GIT_FORBIDDEN = [
  '-c',
  '--output',
  '--ext-diff',
  '--exec-path',
  '--upload-pack',
  '--receive-pack',
  '--git-dir',
  '--work-tree',
];

/**
 * git's options before the subcommand that only print its version or shape its output or how it reads pathspecs. Any
 * other (`--config-env=diff.external=SHELL` is `-c` by another name, `--attr-source`,
 * `--super-prefix`, one git adds later) makes a read-only rule ask: git(1) grows such options.
 */
export const GIT_QUIET_GLOBALS: ReadonlySet<string> = new Set([
  '--version',
  '--no-pager',
  '-P',
  '--paginate',
  '-p',
  '--no-replace-objects',
  '--no-optional-locks',
  '--no-lazy-fetch',
  '--no-advice',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
]);

function git(sub: string, match: string, noMatch: string, extra: Partial<Spec> = {}): Spec {
  return {
    name: `git ${sub}`,
    binary: 'git',
    subcommands: [sub],
    forbidden_flags: GIT_FORBIDDEN,
    examples: { match: [match], no_match: [noMatch] },
    ...extra,
  };
}

// Subcommands that print file contents from the repository's objects, and its config.
const OBJECTS: Partial<Spec> = { repository: 'objects' };
const CONFIG: Partial<Spec> = { repository: 'config' };

// Options of git tag that only shape the listing.
const TAG_LIST_FLAGS = [
  '-l',
  '--list',
  '-n',
  '--sort',
  '--contains',
  '--no-contains',
  '--merged',
  '--no-merged',
  '--points-at',
  '--column',
  '--no-column',
  '-i',
  '--ignore-case',
  '--format',
];

/** The git rules. */
export const GIT_READ_ONLY: readonly Spec[] = [
  git('status', 'git status', 'git -c core.fsmonitor=./x status'),
  git('log', 'git log --oneline -10', 'git log --output=log.txt', OBJECTS),
  // Outside a repository (or with --no-index) git diff compares two trees whole, hidden files
  // and all: `git diff .config empty` from ~ printed ~/.config/app/credentials.env.
  git('diff', 'git diff --stat', 'git diff --ext-diff', {
    ...OBJECTS,
    trees: true,
    examples: {
      match: ['git diff --stat', 'git diff HEAD~1 -- src'],
      no_match: ['git diff --ext-diff', 'git diff .config empty', 'git diff --no-index ~/a ~/b'],
    },
  }),
  git('show', 'git show HEAD', 'git show HEAD > head.patch', OBJECTS),
  // git branch NAME creates a branch, -d/-m/-c delete, move, copy.
  git('branch', 'git branch -a', 'git branch -D main', {
    allowed_flags: [
      '-a',
      '--all',
      '-r',
      '--remotes',
      '-v',
      '-vv',
      '--list',
      '--show-current',
      '--merged',
      '--no-merged',
      '--no-color',
    ],
    max_args: 0,
  }),
  git('remote', 'git remote -v', 'git remote add x https://x.example', {
    ...CONFIG,
    allowed_flags: ['-v', '--verbose'],
    max_args: 0,
  }),
  git('rev-parse', 'git rev-parse HEAD', 'git rev-parse $REF'),
  git('rev-list', 'git rev-list -n 1 HEAD -- test', 'git rev-list --all > revs.txt'),
  { ...git('stash list', 'git stash list', 'git stash pop'), max_args: 0 },
  git('ls-files', 'git ls-files', 'git ls-files > files.txt'),
  git('blame', 'git blame README.md', 'git blame --output=x README.md', OBJECTS),
  // git tag NAME creates a tag: words are patterns only after -l/--list.
  git('tag', 'git tag', 'git tag v1.0', { allowed_flags: TAG_LIST_FLAGS, max_args: 0 }),
  {
    ...git('tag', "git tag -l 'v1.*'", 'git tag -d v1.0', {
      allowed_flags: TAG_LIST_FLAGS,
      required_flags: ['-l', '--list'],
    }),
    name: 'git tag -l',
  },
  // git config KEY VALUE sets: only the query options, and at most a key and a value pattern.
  {
    ...git('config', 'git config --get user.name', 'git config user.name x', {
      ...CONFIG,
      allowed_flags: [
        '--get',
        '--get-all',
        '--get-regexp',
        '-l',
        '--list',
        '--global',
        '--local',
        '--system',
        '--show-origin',
        '--show-scope',
        '--name-only',
        '-z',
        '--null',
      ],
      required_flags: ['--get', '--get-all', '--get-regexp', '-l', '--list'],
      max_args: 2,
    }),
    name: 'git config --get',
  },
  git('shortlog', 'git shortlog -sn', 'git shortlog -sn > authors.txt'),
  git('describe', 'git describe --tags', 'git describe --tags > v.txt'),
  // -O/--open-files-in-pager runs a program on the matches; --no-index and --untracked search
  // files git does not track (git grep --no-index key in ~ reads ~/.ssh, as grep -r would).
  git('grep', "git grep -n 'TODO'", 'git grep -O./x TODO', {
    ...OBJECTS,
    forbidden_flags: [
      ...GIT_FORBIDDEN,
      '-O',
      '--open-files-in-pager',
      '--no-index',
      '--untracked',
      '--no-exclude-standard',
    ],
  }),
];
