// The shape of a read-only rule and the small builders the catalogue families share.

/** One read-only rule (approvals.read_only_catalogue.extra in the config has this shape minus `paths`). */
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
  /** When set, at least one of these options must be present (bare `python3` runs stdin). */
  readonly required_flags?: readonly string[] | undefined;
  /** Most non-option words allowed after the subcommand. */
  readonly max_args?: number | undefined;
  /**
   * Built-in only, for tools whose words are not all paths (a sed script): given every argument
   * word, the words to check as paths, or null to refuse the call. Replaces the default (every
   * operand and every `--flag=value` value is a path).
   */
  readonly paths?: ((args: readonly string[]) => readonly string[] | null) | undefined;
  /**
   * Built-in only: the command opens nothing its words name (echo prints them), so a word is
   * checked as a path only when it holds a glob, which lists a directory as it expands.
   */
  readonly opens_nothing?: boolean | undefined;
  /**
   * Built-in only: every operand after the subcommand may be a directory read whole (git diff
   * outside a repository compares two trees, as diff -r does), so each is judged as a tree.
   */
  readonly trees?: boolean | undefined;
  /**
   * Built-in only: long options whose value is a file-name pattern the tool matches, never a
   * path it opens (grep --include=*.js). A glob there stays that option's value whatever it
   * expands to (a file name holds no `/`), and the value is not checked as a path.
   */
  readonly pattern_options?: readonly string[] | undefined;
  /**
   * Built-in only: actions that run the command written after them, up to `;` or `+`, on each
   * file found (find -exec). That command must itself be read-only, and the tool's paths are
   * then read whole (RECURSIVE_READERS lists the same actions).
   */
  readonly exec_actions?: readonly string[] | undefined;
  /**
   * Built-in only: the command prints what the repository it runs in holds, file contents from
   * its objects (`git show HEAD:x`, `git log -p`) or its config (`git remote -v`), so the
   * caller's check must clear that repository too (a dotfiles repository keeps ~/.netrc's bytes).
   */
  readonly repository?: 'objects' | 'config' | undefined;
  /**
   * Built-in only: a word matching this makes the rule not match, because with it the tool opens
   * a file that no word names as a path (jq's `import "x" as $x` loads x.json; `man ./page.1`
   * renders a local file whose `.so` requests include any other).
   */
  readonly refused_words?: RegExp | undefined;
  readonly examples: { readonly match: readonly string[]; readonly no_match: readonly string[] };
}

type Spec = ReadOnlyRuleSpec;

/** A rule named after its binary, with one example of each kind. */
export function plain(
  binary: string,
  match: string,
  noMatch: string,
  extra: Partial<Spec> = {},
): Spec {
  return { name: binary, binary, examples: { match: [match], no_match: [noMatch] }, ...extra };
}

/** A rule over some subcommands of `binary`, named by the first one. */
export function sub(
  binary: string,
  subcommands: readonly string[],
  examples: Spec['examples'],
  extra: Partial<Spec> = {},
): Spec {
  return { name: `${binary} ${subcommands[0] ?? ''}`, binary, subcommands, examples, ...extra };
}

/** `<binary> --version` and its spellings; the flag is required (bare interpreters run stdin). */
export function version(binary: string, flags: readonly string[] = ['--version']): Spec {
  return {
    name: `${binary} --version`,
    binary,
    allowed_flags: flags,
    required_flags: flags,
    max_args: 0,
    examples: { match: [`${binary} ${flags[0] ?? ''}`], no_match: [`${binary} < script`] },
  };
}

/**
 * A `paths` check that refuses the call when any word matches `pattern` and otherwise checks
 * every word as a path (stricter than the default, which skips options and subcommands).
 */
export function refusing(pattern: RegExp): (args: readonly string[]) => readonly string[] | null {
  return (args) => (args.some((word) => pattern.test(word)) ? null : args);
}
