// Read-only rules for the shell's own answers and for questions about this host and its
// processes. The flags listed are the ones that would set something instead of printing it.
import { plain, sub, version, type ReadOnlyRuleSpec } from './spec.ts';

type Spec = ReadOnlyRuleSpec;

/** A process-query rule: with -p and one pid these print; a second operand would change it. */
function pidQuery(binary: string, match: string, noMatch: string, flags: readonly string[]): Spec {
  return {
    ...plain(binary, match, noMatch, { allowed_flags: flags, required_flags: flags, max_args: 1 }),
    name: `${binary} -p`,
  };
}

// date's options that take the next word: a date text (-d) or a file to read (-f, -r).
const DATE_TEXT = new Set(['-d', '--date']);
const DATE_FILE = new Set(['-f', '--file', '-r', '--reference']);

/**
 * The files date reads, or null when an operand would set the clock: date MMDDhhmm[[CC]YY][.ss]
 * sets it like -s, so every operand must be a +FORMAT.
 */
function datePaths(args: readonly string[]): readonly string[] | null {
  const files: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i] as string;
    if (DATE_TEXT.has(word) || DATE_FILE.has(word)) {
      const value = args[i + 1];
      if (value === undefined) return null;
      if (DATE_FILE.has(word)) files.push(value);
      i += 1;
    } else if (/^-[fr]./.test(word) || /^--(?:file|reference)=/.test(word)) {
      files.push(word.startsWith('--') ? word.slice(word.indexOf('=') + 1) : word.slice(2));
    } else if (!word.startsWith('-') && !word.startsWith('+')) return null;
  }
  return files;
}

// ps options whose value is the next word (or the rest of their cluster: -ouser,pid).
const PS_VALUED = new Set(['C', 'G', 'g', 'o', 'O', 'p', 'q', 's', 't', 'u', 'U']);

/**
 * ps takes no paths; null when a BSD option word (no dash: `auxe`, `e`) holds `e`, which prints
 * every process's environment, the host's once its processes are in view (process-use.ts).
 */
function psPaths(args: readonly string[]): readonly string[] | null {
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i] as string;
    if (word.startsWith('--')) {
      if (!word.includes('=') && /^--(?:sort|format|pid|ppid|user|group|cols|rows)$/.test(word))
        i += 1;
    } else if (word.startsWith('-')) {
      const valued = [...word.slice(1)].findIndex((letter) => PS_VALUED.has(letter));
      if (valued === word.length - 2) i += 1;
    } else if (word.includes('e')) return null;
  }
  return [];
}

/** netstat's printing options (no -c: it never ends; no -W width tricks needed). */
const NETSTAT_FLAGS = [
  '-t',
  '-u',
  '-l',
  '-n',
  '-p',
  '-a',
  '-e',
  '-r',
  '-s',
  '-i',
  '-x',
  '-4',
  '-6',
  '-W',
  '-w',
];

/** tar options that only pick what to list and how to decompress it. */
const TAR_LIST_FLAGS = [
  '-t',
  '--list',
  '-f',
  '--file',
  '-v',
  '--verbose',
  '-z',
  '--gzip',
  '-j',
  '--bzip2',
  '-J',
  '--xz',
  '--zstd',
  '-a',
  '--auto-compress',
];

// pgrep's options: which processes and how to print them. The pattern is no path. Left out:
// -F/--pidfile (reads a file), --ns/--nslist (another process's namespaces), -d (a delimiter
// word that reads like an option value), and every option of pkill, which signals.
const PGREP_VALUED = [
  '-u',
  '--euid',
  '-U',
  '--uid',
  '-G',
  '--group',
  '-g',
  '--pgroup',
  '-P',
  '--parent',
  '-s',
  '--session',
  '-t',
  '--terminal',
];
const PGREP_FLAGS = [
  ...PGREP_VALUED,
  '-l',
  '--list-name',
  '-a',
  '--list-full',
  '-f',
  '--full',
  '-x',
  '--exact',
  '-i',
  '--ignore-case',
  '-n',
  '--newest',
  '-o',
  '--oldest',
  '-c',
  '--count',
  '-v',
  '--inverse',
  '-w',
  '--lightweight',
];

/** pgrep and pidof take patterns and names, never paths: every word is judged by its options. */
function noPaths(): readonly string[] {
  return [];
}

/** cal's operands are a month and a year: numbers only, so nothing is read as a path. */
function calendarPaths(args: readonly string[]): readonly string[] | null {
  return args.every((word) => /^(?:-[13jymwhs]+|\d{1,4})$/.test(word)) ? [] : null;
}

/** vmstat's operands are a delay and a count, both numbers: a delay alone never ends. */
function vmstatPaths(args: readonly string[]): readonly string[] | null {
  const operands = args.filter((word) => !word.startsWith('-'));
  return operands.every((word) => /^\d{1,4}$/.test(word)) && operands.length !== 1 ? [] : null;
}

// ip's printing form: `ip [options] OBJECT [show|list|get] [filters]`. Every option that reads
// a file (-batch), enters a namespace (-netns) or forces on is out, and so is every verb that
// changes or watches (add, del, set, flush, monitor, netns exec ...).
const IP_OPTIONS =
  /^-(?:br(?:ief)?|c(?:olor)?(?:=\w+)?|4|6|s(?:tats)?|d(?:etails)?|j(?:son)?|p(?:retty)?|o(?:neline)?|h(?:uman)?)$/;
const IP_OBJECTS = new Set([
  'addr',
  'address',
  'a',
  'link',
  'l',
  'route',
  'r',
  'ro',
  'neigh',
  'neighbour',
  'n',
]);
const IP_ACTIONS = new Set(['show', 'list', 'ls', 'lst', 'get']);
const IP_CHANGES =
  /^(?:add|del|delete|set|change|replace|flush|append|prepend|save|restore|monitor|exec|netns|help)$/;

/** ip takes no paths: null unless it only shows addresses, links, routes or neighbours. */
function ipPaths(args: readonly string[]): readonly string[] | null {
  let i = 0;
  while (args[i]?.startsWith('-') === true) {
    if (!IP_OPTIONS.test(args[i] as string)) return null;
    i += 1;
  }
  if (!IP_OBJECTS.has(args[i] ?? '')) return null;
  const action = args[i + 1];
  if (action !== undefined && !IP_ACTIONS.has(action)) return null;
  return args.slice(i + 2).some((word) => IP_CHANGES.test(word) || word.startsWith('-'))
    ? null
    : [];
}

/** openssl rand's printing form: an output encoding and a byte count, nothing it reads or writes. */
function randomBytesPaths(args: readonly string[]): readonly string[] | null {
  return args
    .slice(1)
    .every((word) => word === '-hex' || word === '-base64' || /^\d{1,5}$/.test(word))
    ? []
    : null;
}

/** Host, shell and process rules. */
export const SYSTEM_READ_ONLY: readonly Spec[] = [
  plain('df', 'df -h', 'df -h > disks.txt'),
  plain('ps', 'ps aux', 'ps aux > ps.txt', {
    paths: psPaths,
    examples: {
      match: ['ps aux', 'ps -ef', 'ps -o pid,user,comm -u me', 'ps -C node'],
      no_match: ['ps aux > ps.txt', 'ps auxe', 'ps e', 'ps -o pid e'],
    },
  }),
  plain('pwd', 'pwd', 'pwd > where.txt'),
  // echo opens nothing: its words are printed, never read as paths (a glob lists a directory).
  plain('echo', 'echo hello world', 'echo hello > out.txt', {
    opens_nothing: true,
    examples: {
      match: ['echo hello world', 'echo /usr/bin:/home/me/.local/bin'],
      no_match: ['echo hello > out.txt', 'echo $(cat notes.md)'],
    },
  }),
  plain('printf', 'printf "%s\\n" hi', 'printf hi > out.txt'),
  // The no-op builtins that end `… || true` and `cmd || :`: they open and print nothing.
  ...['true', 'false', ':'].map((binary) =>
    plain(binary, binary, `${binary} > out.txt`, { max_args: 0 }),
  ),
  plain('date', 'date +%Y-%m-%d', 'date -s "2020-01-01"', {
    forbidden_flags: ['-s', '--set'],
    paths: datePaths,
    examples: {
      match: ['date +%Y-%m-%d', 'date -d yesterday +%F', 'date -r package.json'],
      no_match: ['date -s "2020-01-01"', 'date 01010000', 'date -u 0101'],
    },
  }),
  plain('uname', 'uname -a', 'uname -a > u.txt'),
  plain('whoami', 'whoami', 'whoami > me.txt'),
  plain('id', 'id -u', 'id $USER'),
  plain('which', 'which node', 'which $CMD'),
  // env with no command prints the environment; with one it is a wrapper (never matched here).
  plain('env', 'env', 'env -u PATH', { allowed_flags: ['-0', '--null'], max_args: 0 }),
  // printenv prints the environment Custode's commands see (no key or token), as env does; its
  // operands name variables, never files.
  plain('printenv', 'printenv PATH', 'printenv PATH > p.txt', {
    allowed_flags: ['-0', '--null'],
    paths: noPaths,
  }),
  plain('uptime', 'uptime', 'uptime > u.txt'),
  // The loaded kernel modules (/proc/modules), and one module's description: by name, or a .ko
  // file named as a path (-b names the directory it looks in: a path too).
  plain('lsmod', 'lsmod', 'lsmod > m.txt', { allowed_flags: [], max_args: 0 }),
  plain('modinfo', 'modinfo snd_hda_intel', 'modinfo snd_hda_intel > m.txt', {
    allowed_flags: [
      '-a',
      '--author',
      '-d',
      '--description',
      '-l',
      '--license',
      '-p',
      '--parameters',
      '-n',
      '--filename',
      '-0',
      '--null',
      '-F',
      '--field',
      '-k',
      '-b',
      '--basedir',
    ],
  }),
  // mount with no operand lists what is mounted; any operand, -a or -t alone would mount.
  plain('mount', 'mount', 'mount /dev/sdb1 /mnt', {
    allowed_flags: ['-l', '--show-labels'],
    max_args: 0,
    examples: { match: ['mount', 'mount -l'], no_match: ['mount /dev/sdb1 /mnt', 'mount -a'] },
  }),
  // Random bytes printed as hex or base64: -out, -rand, -engine and -writerand are refused.
  sub(
    'openssl',
    ['rand'],
    {
      match: ['openssl rand -hex 32', 'openssl rand -base64 24'],
      no_match: ['openssl rand -out key.bin 32', 'openssl rand -rand seed.bin -hex 16'],
    },
    { allowed_flags: ['-hex', '-base64'], paths: randomBytesPaths },
  ),
  plain('lsb_release', 'lsb_release -a', 'lsb_release -a > r.txt', {
    allowed_flags: [
      '-a',
      '--all',
      '-d',
      '--description',
      '-r',
      '--release',
      '-c',
      '--codename',
      '-i',
      '--id',
      '-s',
      '--short',
      '-v',
      '--version',
    ],
    max_args: 0,
  }),
  // groups USER and locale KEYWORD name a user and a setting, never a file.
  plain('groups', 'groups', 'groups > g.txt', { allowed_flags: [], paths: noPaths }),
  plain('locale', 'locale', 'locale > l.txt', {
    allowed_flags: [
      '-a',
      '--all-locales',
      '-m',
      '--charmaps',
      '-k',
      '--keyword-name',
      '-c',
      '--category-name',
    ],
    paths: noPaths,
  }),
  plain('vmstat', 'vmstat 1 3', 'vmstat 1', {
    allowed_flags: [
      '-a',
      '--active',
      '-f',
      '--forks',
      '-s',
      '--stats',
      '-d',
      '--disk',
      '-D',
      '--disk-sum',
      '-w',
      '--wide',
      '-t',
      '--timestamp',
      '-y',
      '--no-first',
    ],
    paths: vmstatPaths,
    examples: {
      match: ['vmstat', 'vmstat 1 3', 'vmstat -s'],
      no_match: ['vmstat 1', 'vmstat -S M 1 2', 'vmstat 1 3 > v.txt'],
    },
  }),
  plain('ip', 'ip -br addr show', 'ip addr add 10.0.0.1/24 dev eth0', {
    paths: ipPaths,
    examples: {
      match: [
        'ip addr',
        'ip -br a',
        'ip -4 addr show dev eth0',
        'ip route',
        'ip route get 1.1.1.1',
        'ip -s link',
      ],
      no_match: [
        'ip addr add 10.0.0.1/24 dev eth0',
        'ip link set eth0 down',
        'ip -batch cmds.txt',
        'ip netns exec x sh',
        'ip -n other addr',
        'ip route flush all',
        'ip monitor',
      ],
    },
  }),
  plain('nproc', 'nproc', 'nproc > n.txt'),
  plain('free', 'free -h', 'free -h > m.txt'),
  plain('lsblk', 'lsblk /dev/sda', 'lsblk > disks.txt'),
  // lscpu -s DIR reads another root's /proc and /sys: a path like any other.
  plain('lscpu', 'lscpu -e', 'lscpu > cpu.txt'),
  plain('lsof', 'lsof -i :3000', 'lsof -i :3000 > l.txt'),
  plain('pgrep', 'pgrep -af "node server.js"', 'pgrep -F run.pid', {
    allowed_flags: PGREP_FLAGS,
    paths: noPaths,
    examples: {
      match: [
        'pgrep -af "node server.js"',
        'pgrep -l node',
        'pgrep -u alice -c python3',
        'pgrep -x sshd',
      ],
      no_match: ['pgrep -F run.pid', 'pgrep --ns 1 node', 'pgrep node > pids.txt'],
    },
  }),
  plain('pidof', 'pidof node', 'pidof node > pids.txt', {
    allowed_flags: ['-s', '-x'],
    paths: noPaths,
  }),
  ...['cal', 'ncal'].map((binary) =>
    plain(binary, `${binary} 3 2026`, `${binary} ~/notes`, { paths: calendarPaths }),
  ),
  // hostname NAME sets the host name.
  plain('hostname', 'hostname', 'hostname newname', {
    max_args: 0,
    forbidden_flags: ['-F', '--file', '-b', '--boot'],
  }),
  // command NAME runs NAME; only -v and -V print.
  plain('command', 'command -v mkfs', 'command -p -v x > w.txt', {
    allowed_flags: ['-v', '-V'],
    required_flags: ['-v', '-V'],
  }),
  plain('type', 'type ls', 'type $X'),
  // man -P/-H pick the program that shows the page.
  // Pages by name only: a local file (`man ./page.1`) is rendered with its `.so` includes.
  plain('man', 'man sudo', 'man -P ./x sudo', {
    allowed_flags: [],
    refused_words: /\//,
    examples: { match: ['man sudo', 'man 5 crontab'], no_match: ['man -P ./x sudo', 'man ./x.1'] },
  }),
  {
    ...plain('killall', 'killall -l', 'killall nginx', {
      allowed_flags: ['-l', '--list', '-V', '--version'],
      required_flags: ['-l', '--list', '-V', '--version'],
      max_args: 0,
    }),
    name: 'killall -l',
  },
  // ss -K kills the sockets it lists, -D dumps to a file, -F reads a filter file, -N enters a
  // namespace: everything else prints.
  plain('ss', 'ss -ltnp', 'ss -K dst 10.0.0.1', {
    forbidden_flags: ['-K', '--kill', '-D', '--diag', '-F', '--filter', '-N', '--net'],
  }),
  plain('netstat', 'netstat -tlnp', 'netstat -tlnp > n.txt', { allowed_flags: NETSTAT_FLAGS }),
  // Listing an archive reads it; every other tar option is refused (extracting, creating, and
  // --to-command, -I, --checkpoint-action and -F, which run programs).
  {
    ...plain('tar', 'tar -tzf backup.tar.gz', 'tar -xzf backup.tar.gz', {
      allowed_flags: TAR_LIST_FLAGS,
      required_flags: ['-t', '--list'],
    }),
    name: 'tar --list',
    examples: {
      match: ['tar -tzf backup.tar.gz', 'tar --list -f a.tar', 'tar -tvjf a.tar.bz2'],
      no_match: ['tar -xzf backup.tar.gz', 'tar -tf a.tar --to-command=sh', 'tar tzf a.tgz'],
    },
  },
  {
    ...plain('unzip', 'unzip -l photos.zip', 'unzip photos.zip', {
      allowed_flags: ['-l', '-v', '-t', '-q', '-qq'],
      required_flags: ['-l', '-v', '-t'],
    }),
    name: 'unzip -l',
  },
  plain('zipinfo', 'zipinfo photos.zip', 'zipinfo photos.zip > z.txt'),
  ...['git', 'cargo', 'rustc', 'gcc', 'make', 'bash', 'curl', 'docker', 'psql'].map((binary) =>
    version(binary),
  ),
  pidQuery('chrt', 'chrt -p 1234', 'chrt -p 5 1234', ['-p', '--pid']),
  pidQuery('taskset', 'taskset -p 1234', 'taskset -p 3 1234', ['-p', '--pid']),
  pidQuery('ionice', 'ionice -p 1234', 'ionice -c3 -p 1234', ['-p']),
];
