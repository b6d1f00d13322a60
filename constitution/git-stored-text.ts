// Which git commands read the text of the file versions a repository stores: they print it
// (`git show`, `git diff`, `git log -p`) or answer a question about it (`git log -G 'ghp_[A-M]'`
// says whether a version held such a line: a credential comes out one question per call).
// A repository whose stored text holds a credential (a token committed once, blanked since)
// shows it through them; `git log --oneline`, `git diff --stat` and `git status` read none of it.

/** Subcommands that print file contents from the repository's objects whatever their options. */
const PRINTS_FILES: ReadonlySet<string> = new Set([
  'show',
  'diff',
  'diff-tree',
  'diff-index',
  'grep',
  'blame',
  'annotate',
  'cat-file',
  'archive',
  'format-patch',
  'range-diff',
  'difftool',
]);

/** Subcommands that read file contents only with a patch or search option (`git log -p`, `-G`). */
const READS_FILES_WITH_OPTION: ReadonlySet<string> = new Set([
  'log',
  'whatchanged',
  'reflog',
  'stash',
]);

/**
 * An option that makes `git log` and its kin print patches or lines of files, or search the
 * text of every version (the pickaxe: `-S`, `-G`, attached or not, in a cluster or not).
 */
const READS_TEXT_OPTION =
  /^(?:-[a-zA-Z]*[puLcSG]|-U\d*|--(?:patch|unified|cc|word-diff|color-words|full-diff|binary|line-porcelain|ext-diff|textconv|diff-merges)\b)/;

/** Comparisons that, given only a names or counts format, print no line of any file. */
const COMPARES: ReadonlySet<string> = new Set(['diff', 'diff-tree', 'diff-index']);
const NAMES_ONLY_FORMAT =
  /^--(?:stat|numstat|shortstat|name-only|name-status|summary|compact-summary|dirstat)(?:=|$)/;

/** True when git's words (`args`, its own options first) read stored file text for `sub`. */
export function readsStoredText(sub: string, args: readonly string[]): boolean {
  const options = args.slice(args.indexOf(sub) + 1);
  const readsText = options.some((word) => READS_TEXT_OPTION.test(word));
  if (COMPARES.has(sub)) return readsText || !options.some((word) => NAMES_ONLY_FORMAT.test(word));
  return PRINTS_FILES.has(sub) || (READS_FILES_WITH_OPTION.has(sub) && readsText);
}
