// Programs a git configuration starts during ordinary local commands (status, diff, log -p,
// show, blame, add, commit, stash): an external diff, a filter or textconv driver that the
// work tree's .gitattributes names, a signature checker. A repository that came with its own
// .git (an unpacked archive, a copied project) brings its config, and a command without a card
// would run that program with the home readable. Hooks and fsmonitor are switched off for such
// commands in the sandbox (executors/shell-exec.ts); these cannot be, since their names vary.

/** One program a git config names, with the key that names it. */
export interface ConfiguredProgram {
  readonly key: string;
  readonly program: string;
}

// `git config --list` lines: section and key lowercased, a subsection as written.
const PROGRAM_KEY =
  /^(diff\.external|diff\..+\.(?:textconv|command)|filter\..+\.(?:clean|smudge|process))=(.*)$/i;
const SIGNATURE_PROGRAM = /^(gpg(?:\.[^.=]+)?\.program)=(.*)$/i;
const SHOWS_SIGNATURES = /^log\.showsignature=(?:true|yes|on|1)$/im;
// Git LFS installs its filter in the global config (`git lfs install`): a known program.
const KNOWN_PROGRAM = /^git[- ]lfs\s/;

/**
 * The first program that `configList` (`git config --list --includes` as a command in the
 * directory sees it) makes a local git command start, or null. Git LFS's own filter is known.
 */
export function configuredProgram(configList: string): ConfiguredProgram | null {
  const signatures = SHOWS_SIGNATURES.test(configList);
  for (const line of configList.split('\n')) {
    const found = PROGRAM_KEY.exec(line) ?? (signatures ? SIGNATURE_PROGRAM.exec(line) : null);
    if (found === null) continue;
    const program = (found[2] ?? '').trim();
    if (program !== '' && !KNOWN_PROGRAM.test(program)) return { key: found[1] as string, program };
  }
  return null;
}

/**
 * Where a git config makes git run files, as it names them (relative to the work tree, `~/`, or
 * absolute): the hooks directories (`core.hooksPath`) and every word of every command line a
 * key gives git to start (core.fsmonitor, editors and pagers, filter, diff and merge drivers,
 * credential helpers, signature programs, `!` aliases). A file there runs on the person's next
 * ordinary git command, on the host, so no call without a card changes one.
 */
export interface GitRunPlaces {
  readonly hooksDirs: readonly string[];
  readonly programWords: readonly string[];
}

const HOOKS_KEY = /^core\.hookspath=(.*)$/i;
const COMMAND_KEY =
  /^(?:core\.(?:fsmonitor|editor|pager|sshcommand|askpass)|sequence\.editor|diff\.external|interactive\.difffilter|credential(?:\..+)?\.helper|gpg(?:\.[^.=]+)?\.program|pager\.[^=]+|alias\.[^=]+|(?:diff|filter|merge|difftool|mergetool|browser|man)\..+\.(?:textconv|command|clean|smudge|process|driver|cmd|path))=(.*)$/i;

export function gitRunPlaces(configList: string): GitRunPlaces {
  const hooksDirs: string[] = [];
  const programWords: string[] = [];
  for (const line of configList.split('\n')) {
    const hooks = HOOKS_KEY.exec(line)?.[1]?.trim();
    if (hooks !== undefined && hooks !== '') hooksDirs.push(hooks);
    const command = COMMAND_KEY.exec(line)?.[1];
    if (command === undefined) continue;
    for (const word of command.replace(/^!/, '').split(/\s+/)) {
      const bare = word.replace(/^['"]|['"]$/g, '');
      // A word that names a directory (`!cd . && …`) names no program file.
      if (!['', '.', '..', '~', '/'].includes(bare)) programWords.push(bare);
    }
  }
  return { hooksDirs, programWords };
}
