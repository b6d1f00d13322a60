// One list of the programs that run other code: shells, interpreters (with their versioned
// names) and the launchers and wrappers that run another command. The guard, the parser's
// unwrapping, the interpreter payload reader and the always-allow rules all ask these, so a
// spelling one of them knows (python3.12, pypy3, mksh) is known to all.

/** Shells: their -c argument, stdin or script is more shell. */
export const SHELLS: ReadonlySet<string> = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'ash',
  'mksh',
  'yash',
  'fish',
  'csh',
  'tcsh',
]);

/** Interpreters that run code from -c/-e, a file, or stdin. */
const INTERPRETERS: ReadonlySet<string> = new Set([
  'python',
  'python2',
  'python3',
  'pypy',
  'pypy3',
  'perl',
  'ruby',
  'node',
  'nodejs',
  'php',
  'lua',
  'luajit',
  'deno',
  'bun',
  'tclsh',
  'wish',
  'osascript',
  'Rscript',
  'julia',
]);

/** An interpreter, versioned names included (python3.12, pypy3.10, perl5.36, node20). */
export function isInterpreter(binary: string): boolean {
  return (
    INTERPRETERS.has(binary) || /^(?:python|pypy|perl|ruby|php|lua|node|tclsh)[\d.]+$/.test(binary)
  );
}

/**
 * The interpreter a binary is, by its family's plain name (python3.12 and pypy3 are python,
 * nodejs and node20 are node), or null when it is none: the options that hand it code on its
 * own line are the family's.
 */
export function interpreterFamily(binary: string): string | null {
  if (!isInterpreter(binary)) return null;
  const plain = binary.replace(/[\d.]+$/, '');
  if (plain === 'pypy') return 'python';
  return plain === 'nodejs' ? 'node' : plain;
}

/** Programs whose arguments are another command they run (a rule for them allows everything). */
const LAUNCHERS: ReadonlySet<string> = new Set([
  'npx',
  'pnpx',
  'bunx',
  'uvx',
  'sudo',
  'doas',
  'su',
  'env',
  'xargs',
  'parallel',
  'command',
  'builtin',
  'exec',
  'nohup',
  'nice',
  'timeout',
  'stdbuf',
  'ionice',
  'setsid',
  'chroot',
  'time',
  'watch',
  'nsenter',
  'unshare',
  'flock',
  'busybox',
  'ssh',
]);

/**
 * Build and package tools that run code they find in the directory they work in: a Makefile's
 * recipes, package.json's lifecycle scripts, setup.py or a build backend, build.rs, a Rakefile.
 */
export const PROJECT_CODE_RUNNERS: ReadonlySet<string> = new Set([
  'make',
  'gmake',
  'cmake',
  'ninja',
  'meson',
  'just',
  'rake',
  'gradle',
  'mvn',
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'pip',
  'pip3',
  'pipx',
  'poetry',
  'uv',
  'tox',
  'nox',
  'cargo',
  'go',
  'composer',
  'bundle',
]);

/** A shell, an interpreter, or a program that runs the command it is given. */
export function runsOtherCode(binary: string): boolean {
  return SHELLS.has(binary) || isInterpreter(binary) || LAUNCHERS.has(binary);
}

/**
 * Clients of a daemon on the host (a container engine, a cluster, a service manager): they ask it
 * over a socket, or log in with a store, that every call without a card has hidden, so Custode's
 * own run of `docker inspect` or `systemctl status` reaches nothing and fails. Another agent's
 * shell reaches the daemon with the user's rights, and what it prints (a container's environment,
 * a pod's logs, a unit's command line) comes back whole.
 */
export const HOST_SERVICE_CLIENTS: ReadonlySet<string> = new Set([
  'docker',
  'podman',
  'nerdctl',
  'crictl',
  'ctr',
  'kubectl',
  'oc',
  'helm',
  'systemctl',
  'loginctl',
  'busctl',
  'launchctl',
  'virsh',
]);

/**
 * Programs that read text and print it, and nothing more: they open no socket and run no
 * program (awk and sed only in the print-only forms the read-only catalogue lets through).
 * A line that runs with a network (the fetch proxy's, the host's for a process listing) may
 * pipe its text through these alone: `npm view --noproxy`, `pip list -o`, `kubectl` or `git`
 * would open connections of their own, past the proxy.
 */
export const TEXT_FILTERS: ReadonlySet<string> = new Set([
  'grep',
  'egrep',
  'fgrep',
  'head',
  'tail',
  'sort',
  'uniq',
  'wc',
  'cut',
  'tr',
  'column',
  'jq',
  'nl',
  'tac',
  'rev',
  'fold',
  'fmt',
  'expand',
  'base64',
  'xxd',
  'od',
  'strings',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'awk',
  'sed',
]);
