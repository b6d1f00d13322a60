// Git in the agent's own shell prints what its repository stores as it is: Custode cuts
// credentials out of what its own calls print (executors/shown-text.ts), the agent's shell does
// not. A line that prints file contents from a repository whose stored file versions hold a
// credential (a key committed once and removed since) asks; one that prints none
// (`git log --oneline`, `git status`) does not.
import type { ParsedShell, ShellWord } from '../shell/types.ts';
import type { PathOracle } from '../pipeline/paths.ts';
import { gitRuns } from './git-on-host.ts';

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

/** Subcommands that print file contents only with a patch option (`git log -p`). */
const PRINTS_FILES_WITH_PATCH: ReadonlySet<string> = new Set([
  'log',
  'whatchanged',
  'reflog',
  'stash',
]);

/** An option that makes `git log` and its kin print patches or lines of files. */
const PATCH_OPTION =
  /^(?:-[a-zA-Z]*[puLc]|-U\d*|--(?:patch|unified|cc|word-diff|color-words|full-diff|binary|line-porcelain|ext-diff|textconv|diff-merges)\b)/;

/** True when git's words (`args`, its own options first) print file contents for `sub`. */
function printsFiles(sub: string, args: readonly ShellWord[]): boolean {
  if (PRINTS_FILES.has(sub)) return true;
  const options = args.slice(args.findIndex((word) => word.text === sub) + 1);
  return PRINTS_FILES_WITH_PATCH.has(sub) && options.some((word) => PATCH_OPTION.test(word.text));
}

/** Why git in this line would print a credential its repository stores; null if it cannot. */
export function gitHistoryOnHost(
  parsed: ParsedShell,
  cwd: string,
  paths: PathOracle,
): string | null {
  for (const run of gitRuns(parsed, cwd, paths) ?? []) {
    if (!printsFiles(run.sub, run.args)) continue;
    const credential = paths.historyCredential(run.dir);
    if (credential !== null)
      return `git ${run.sub} would print what the repository in ${run.dir} stores, and a file version there holds ${credential.name}; Custode cuts it from what its own calls print, the agent's git does not`;
  }
  return null;
}
