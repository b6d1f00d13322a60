// The shape of a workspace rule, and how a rule reads a command's words.
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

/** One path a command writes, and how. */
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
  /**
   * It moves HEAD off commits that only the reflog then keeps (`reset --soft`, `commit --amend`):
   * it runs without a card only where the repository keeps one.
   */
  readonly leavesCommits: boolean;
  /** What it stages or commits from the work tree (`git add -A`, `git commit -a`), or none. */
  readonly stages: readonly Staging[];
  /** It runs the project's own code (a build, test or lint script, a script file). */
  readonly runs: boolean;
  /**
   * The code runs only as a dry run (`make -n`): asked to change nothing, it gets nothing
   * writable (make still runs `+` recipe lines, those naming $(MAKE), and every $(shell …)).
   */
  readonly dryRun: boolean;
  /**
   * It runs code no rule can read and nobody reviewed (`python3 -c`, `node -e`, a standard
   * library tool run with -m): the line runs only read-only (inline-code.ts).
   */
  readonly readOnlyCode: boolean;
  /** Reads that walk a whole tree (cp -r, tar c): placed by the read check as trees. */
  readonly trees: readonly string[];
  /** Reads that are SQLite databases a query opens: the SQL stored in them is checked too. */
  readonly databases: readonly string[];
}

/**
 * The work tree files git takes into the index or a commit: those the pathspecs (relative to
 * where git runs; `:/` is the whole tree) match among the tracked files edited since, and with
 * `untracked` the files git does not track and does not ignore.
 */
export interface Staging {
  readonly pathspecs: readonly string[];
  readonly untracked: boolean;
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

/** The options a rule accepts, by spelling: `-p`, `--parents`; `valued` ones take a value. */
export interface Options {
  readonly flags?: readonly string[];
  readonly valued?: readonly string[];
}

/** Option values by spelling, and the operands. */
export interface ParsedWords {
  readonly values: Readonly<Record<string, string | boolean | undefined>>;
  readonly operands: readonly string[];
}

/**
 * The words as getopt reads them (node's util.parseArgs: clusters, `--x=v`, `--`), or null when
 * an option is not in the rule's list. Options are named by their spelling: `-p`, `--parents`.
 */
export function words(args: readonly string[], options: Options): ParsedWords | null {
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

const NONE: WorkspaceEffects = {
  reads: [],
  targets: [],
  repository: false,
  leavesCommits: false,
  stages: [],
  runs: false,
  dryRun: false,
  readOnlyCode: false,
  trees: [],
  databases: [],
};

/** Effects with the fields a rule leaves out empty. */
export function effects(partial: Partial<WorkspaceEffects>): WorkspaceEffects {
  return { ...NONE, ...partial };
}
