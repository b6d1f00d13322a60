// The built-in read-only catalogue: commands that only read, with the flags that would make
// them write or run something taken out. A call whose every command matches one of these (and
// whose paths pass the guard and the scope) runs without an approval card. Each rule carries
// examples that must and must not match; the loader refuses a catalogue whose examples drift.

/** One read-only rule (the same shape as approvals.read_only_catalogue.extra in the config). */
export interface ReadOnlyRuleSpec {
  /** The name the policy reports: `read-only: <name>`. */
  readonly name: string;
  readonly binary: string;
  /** When set, the first non-option words must be one of these (`stash list` is two words). */
  readonly subcommands?: readonly string[] | undefined;
  /** When set, every option must be one of these (short clusters are split: -la is -l -a). */
  readonly allowed_flags?: readonly string[] | undefined;
  /** Options that make the tool write or execute (`--x` also covers `--x=v`; `-exec` covers `-execdir`). */
  readonly forbidden_flags?: readonly string[] | undefined;
  /** Most non-option words allowed after the subcommand. */
  readonly max_args?: number | undefined;
  readonly examples: { readonly match: readonly string[]; readonly no_match: readonly string[] };
}

type Spec = ReadOnlyRuleSpec;

function plain(binary: string, match: string, noMatch: string, extra: Partial<Spec> = {}): Spec {
  return { name: binary, binary, examples: { match: [match], no_match: [noMatch] }, ...extra };
}

// git options that write a file (--output), run a program (-c core.pager=..., --ext-diff) or
// change where git looks for its programs.
const GIT_FORBIDDEN = [
  '-c',
  '--output',
  '--ext-diff',
  '--exec-path',
  '--upload-pack',
  '--receive-pack',
];

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

/**
 * Readers that recurse into directories and print file contents, with the options that make
 * them recurse (an empty list: always). A directory argument is a promise about every file
 * below it, which a path check on the directory cannot keep (grep -r x ~ reads ~/.ssh), so these
 * are read-only only over relative subdirectories of the working directory.
 */
export const RECURSIVE_READERS: ReadonlyMap<string, readonly string[]> = new Map([
  ['grep', ['-r', '-R', '--recursive', '--dereference-recursive', '--directories=recurse']],
  ['rg', []],
  ['diff', ['-r', '--recursive']],
]);

/** The built-in rules. Why each one is safe is the rule itself: the flags that are not. */
export const BUILT_IN_READ_ONLY: readonly Spec[] = [
  plain('ls', 'ls -la src', 'ls -la src > listing.txt'),
  plain('cat', 'cat package.json', 'cat a.txt > b.txt'),
  plain('head', 'head -n 20 README.md', 'head -n 5 $FILE'),
  plain('tail', 'tail -n 50 app.log', 'tail -n 5 *.log'),
  plain('wc', 'wc -l README.md', 'wc -l $(git ls-files)'),
  plain('grep', "grep -rn 'TODO' src", 'grep -r x src >> found.txt'),
  plain('rg', "rg 'fn main' src", "rg --pre ./run.sh 'x'", { forbidden_flags: ['--pre'] }),
  plain('find', "find . -name '*.ts' -not -path './node_modules/*'", 'find . -name x -delete', {
    // -exec* and -ok* run commands, -delete removes, -fprint* and -fls write files.
    forbidden_flags: ['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fls'],
  }),
  plain('du', 'du -sh node_modules', 'du -sh ~/*'),
  plain('df', 'df -h', 'df -h > disks.txt'),
  plain('ps', 'ps aux', 'ps aux > ps.txt'),
  plain('pwd', 'pwd', 'pwd > where.txt'),
  plain('echo', 'echo hello world', 'echo hello > out.txt'),
  plain('printf', 'printf "%s\\n" hi', 'printf hi > out.txt'),
  plain('date', 'date +%Y-%m-%d', 'date -s "2020-01-01"', { forbidden_flags: ['-s', '--set'] }),
  plain('uname', 'uname -a', 'uname -a > u.txt'),
  plain('whoami', 'whoami', 'whoami > me.txt'),
  plain('id', 'id -u', 'id $USER'),
  plain('which', 'which node', 'which $CMD'),
  plain('file', 'file README.md', 'file -C -m magic', { forbidden_flags: ['-C', '--compile'] }),
  plain('stat', 'stat package.json', 'stat *'),
  plain('sort', 'sort -u names.txt', 'sort -o names.txt names.txt', {
    forbidden_flags: ['-o', '--output', '--compress-program'],
  }),
  // uniq's second operand is an output file.
  plain('uniq', 'uniq -c names.txt', 'uniq names.txt out.txt', { max_args: 1 }),
  plain('cut', 'cut -d, -f1 data.csv', 'cut -f1 data.csv > col.txt'),
  plain('tr', 'tr a-z A-Z', 'tr a-z A-Z > up.txt'),
  plain('diff', 'diff -u old.txt new.txt', 'diff -u a b > patch.diff'),
  plain('tree', 'tree -L 2 src', 'tree -o tree.txt', { forbidden_flags: ['-o', '-R'] }),
  // less: literal files only; -o/-O log to a file, -k reads key bindings, + runs initial commands.
  plain('less', 'less README.md', 'less +!id README.md', {
    allowed_flags: ['-N', '-S', '-R', '-F', '-X', '-i', '-I', '-n'],
  }),
  // env with no command prints the environment; with one it is a wrapper (never matched here).
  plain('env', 'env', 'env -u PATH', { allowed_flags: ['-0', '--null'], max_args: 0 }),
  plain('jq', "jq '.version' package.json", 'jq . a.json > b.json'),
  plain('basename', 'basename src/a.ts', 'basename $X'),
  plain('dirname', 'dirname src/a.ts', 'dirname $X'),
  plain('realpath', 'realpath src', 'realpath *'),
  plain('readlink', 'readlink -f src', 'readlink $X'),
  plain('uptime', 'uptime', 'uptime > u.txt'),
  plain('nproc', 'nproc', 'nproc > n.txt'),
  plain('free', 'free -h', 'free -h > m.txt'),
  plain('lsblk', 'lsblk /dev/sda', 'lsblk > disks.txt'),
  plain('lsof', 'lsof -i :3000', 'lsof -i :3000 > l.txt'),
  // hostname NAME sets the host name.
  plain('hostname', 'hostname', 'hostname newname', {
    max_args: 0,
    forbidden_flags: ['-F', '--file', '-b', '--boot'],
  }),
  plain('command', 'command -v mkfs', 'command -p -v x > w.txt', { allowed_flags: ['-v', '-V'] }),
  plain('type', 'type ls', 'type $X'),
  // man -P/-H pick the program that shows the page.
  plain('man', 'man sudo', 'man -P ./x sudo', { allowed_flags: [] }),
  {
    ...plain('killall', 'killall -l', 'killall nginx', {
      allowed_flags: ['-l', '--list', '-V', '--version'],
      max_args: 0,
    }),
    name: 'killall -l',
  },
  // With one argument these query a process; a second argument would change it.
  {
    ...plain('chrt', 'chrt -p 1234', 'chrt -p 5 1234', {
      allowed_flags: ['-p', '--pid'],
      max_args: 1,
    }),
    name: 'chrt -p',
  },
  {
    ...plain('taskset', 'taskset -p 1234', 'taskset -p 3 1234', {
      allowed_flags: ['-p', '--pid'],
      max_args: 1,
    }),
    name: 'taskset -p',
  },
  {
    ...plain('ionice', 'ionice -p 1234', 'ionice -c3 -p 1234', {
      allowed_flags: ['-p'],
      max_args: 1,
    }),
    name: 'ionice -p',
  },
  git('status', 'git status', 'git -c core.fsmonitor=./x status'),
  git('log', 'git log --oneline -10', 'git log --output=log.txt'),
  git('diff', 'git diff --stat', 'git diff --ext-diff'),
  git('show', 'git show HEAD', 'git show HEAD > head.patch'),
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
    allowed_flags: ['-v', '--verbose'],
    max_args: 0,
  }),
  git('rev-parse', 'git rev-parse HEAD', 'git rev-parse $REF'),
  { ...git('stash list', 'git stash list', 'git stash pop'), max_args: 0 },
  git('ls-files', 'git ls-files', 'git ls-files > files.txt'),
  git('blame', 'git blame README.md', 'git blame --output=x README.md'),
  {
    name: 'npm ls',
    binary: 'npm',
    subcommands: ['ls', 'list'],
    examples: { match: ['npm ls --depth=0'], no_match: ['npm install'] },
  },
  {
    name: 'npm view',
    binary: 'npm',
    subcommands: ['view', 'info'],
    examples: { match: ['npm view zod version'], no_match: ['npm publish'] },
  },
  {
    ...plain('node', 'node --version', 'node script.js', {
      allowed_flags: ['--version', '-v'],
      max_args: 0,
    }),
    name: 'node --version',
  },
  {
    ...plain('python3', 'python3 --version', "python3 -c 'print(1)'", {
      allowed_flags: ['--version', '-V'],
      max_args: 0,
    }),
    name: 'python3 --version',
  },
  {
    name: 'docker ps',
    binary: 'docker',
    subcommands: ['ps', 'images', 'logs'],
    examples: { match: ['docker ps -a', 'docker logs --tail 50 app'], no_match: ['docker rm x'] },
  },
  {
    name: 'systemctl status',
    binary: 'systemctl',
    subcommands: ['status', 'is-active', 'is-enabled', 'list-units'],
    examples: { match: ['systemctl status nginx'], no_match: ['systemctl stop nginx'] },
  },
  {
    name: 'launchctl print',
    binary: 'launchctl',
    subcommands: ['print', 'list'],
    examples: { match: ['launchctl print system/x'], no_match: ['launchctl stop x'] },
  },
  {
    name: 'diskutil list',
    binary: 'diskutil',
    subcommands: ['list', 'info', 'apfs list'],
    examples: {
      match: ['diskutil info disk0', 'diskutil apfs list'],
      no_match: ['diskutil eraseDisk x'],
    },
  },
  {
    name: 'sgdisk -p',
    binary: 'sgdisk',
    allowed_flags: ['-p', '--print'],
    max_args: 1,
    examples: { match: ['sgdisk -p /dev/sda'], no_match: ['sgdisk -Z /dev/sda'] },
  },
];
