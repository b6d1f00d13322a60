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

/** Subcommands that print or search the work tree's files too, unless told to use the index. */
const READS_WORK_TREE: ReadonlySet<string> = new Set([
  'diff',
  'diff-files',
  'diff-index',
  'grep',
  'blame',
  'annotate',
  'difftool',
]);

/**
 * True when git's words may print a tracked file's uncommitted edit (`git diff`, `git grep`);
 * `git diff --cached`, `git show` and `git log -p` print only what the repository stores.
 */
export function readsWorkTree(sub: string, args: readonly string[]): boolean {
  const options = args.slice(args.indexOf(sub) + 1);
  return READS_WORK_TREE.has(sub) && !options.some((w) => w === '--cached' || w === '--staged');
}

/** True when git's words (`args`, its own options first) read stored file text for `sub`. */
export function readsStoredText(sub: string, args: readonly string[]): boolean {
  const options = args.slice(args.indexOf(sub) + 1);
  const readsText = options.some((word) => READS_TEXT_OPTION.test(word));
  if (COMPARES.has(sub)) return readsText || !options.some((word) => NAMES_ONLY_FORMAT.test(word));
  return PRINTS_FILES.has(sub) || (READS_FILES_WITH_OPTION.has(sub) && readsText);
}

// Commit and tag messages are text the repository stores too: a token pasted into a commit
// message (`deploy with ghp_…`) is printed by `git log`, `--oneline` included, and by the
// listings that show a subject (`git branch -v`, `git stash list`, `git tag -n`).

/** Subcommands that print messages in their default form. */
const PRINTS_MESSAGES: ReadonlySet<string> = new Set([
  'log',
  'whatchanged',
  'shortlog',
  'reflog',
  'stash',
  'show',
  'format-patch',
  'cat-file',
  'range-diff',
  'blame',
  'annotate',
]);

/** A named pretty format, or a custom one that names a message part (`%s`, `%b`, `%(contents)`). */
const FORMAT_OPTION = /^--(?:format|pretty)(?:=(.*))?$/;
const MESSAGE_PLACEHOLDER = /%[sbBNfg(]/;
const NAMED_FORMATS = /^(?:oneline|short|medium|full|fuller|reference|email|mboxrd|raw)$/;

function formatPrintsMessages(format: string): boolean {
  return NAMED_FORMATS.test(format) || MESSAGE_PLACEHOLDER.test(format) || !format.includes('%');
}

/** The custom formats the words give (`--format=%h`, `--pretty format:%H`), in order. */
function formats(options: readonly string[]): string[] {
  const found: string[] = [];
  options.forEach((word, at) => {
    const option = FORMAT_OPTION.exec(word);
    if (option !== null) found.push(option[1] ?? options[at + 1] ?? '');
  });
  return found;
}

/** Listings that print a subject only with an option: `branch -v`, `tag -n`, `rev-list --format`. */
function listingPrintsMessages(sub: string, options: readonly string[]): boolean {
  switch (sub) {
    case 'branch':
      return options.some((word) => word === '--verbose' || /^-[a-zA-Z]*v/.test(word));
    case 'tag':
      return options.some((word) => /^-[a-zA-Z]*n/.test(word) || FORMAT_OPTION.test(word));
    case 'rev-list':
      return options.some((word) => /^--(?:header|oneline|format|pretty)\b/.test(word));
    case 'for-each-ref':
      return options.some((word) => FORMAT_OPTION.test(word));
    default:
      return false;
  }
}

/**
 * A search of the messages (`--grep`, one question per call), a custom format that may cut or wrap
 * one (`%<(8,trunc)%s`, `%w(4)%B`) and a re-encoding (`--encoding=UTF-16`) print a token in pieces
 * or in a form no output check sees.
 */
const RESHAPES_MESSAGES = /^--(?:grep|all-match|invert-grep|encoding|format|pretty)\b/;

/**
 * How git's words (`args`, its own options first) print commits' and tags' messages for `sub`
 * (`stash list` counts as `stash`): 'none' (`git log --format=%h`, `git status`), 'whole' (each
 * line as stored: `git log`, `--oneline`, `git branch -v`) or 'reshaped' (searched, formatted or
 * re-encoded: `git log --grep=RE`, `--format=%s`).
 */
export function messageForm(sub: string, args: readonly string[]): 'none' | 'whole' | 'reshaped' {
  const name = sub.split(' ')[0] ?? sub;
  const options = args.slice(args.indexOf(name) + 1);
  // A search answers about every message, whatever the format prints.
  if (PRINTS_MESSAGES.has(name) && options.some((word) => word.startsWith('--grep')))
    return 'reshaped';
  if (!printsMessages(name, options)) return 'none';
  return options.some((word) => RESHAPES_MESSAGES.test(word)) ? 'reshaped' : 'whole';
}

/** Git config that changes how messages print by default (a pretty format, an output encoding). */
export const RESHAPING_CONFIG = /^(?:i18n\.logoutputencoding|format\.pretty|pretty\.[^=]*)=/im;

function printsMessages(name: string, options: readonly string[]): boolean {
  if (!PRINTS_MESSAGES.has(name)) return listingPrintsMessages(name, options);
  // `git shortlog -sn` counts commits by author: no subject.
  if (
    name === 'shortlog' &&
    options.some((word) => word === '--summary' || /^-[a-zA-Z]*s/.test(word))
  )
    return false;
  const custom = formats(options);
  return custom.length === 0 || formatPrintsMessages(custom.at(-1) ?? '');
}
