// Git in the agent's own shell prints what its repository stores as it is: Custode cuts
// credentials out of what its own calls print (executors/shown-text.ts), the agent's shell does
// not. A line that prints or searches file contents (constitution/git-stored-text.ts) from a
// repository whose stored file versions hold a credential (a key committed once and removed
// since) asks; one that reads none (`git log --oneline`, `git status`) does not.
import type { ParsedShell } from '../shell/types.ts';
import type { PathOracle } from '../pipeline/paths.ts';
import { gitRuns } from './git-on-host.ts';
import { readsStoredText } from '../../constitution/git-stored-text.ts';

/** Why git in this line would print a credential its repository stores; null if it cannot. */
export function gitHistoryOnHost(
  parsed: ParsedShell,
  cwd: string,
  paths: PathOracle,
): string | null {
  for (const run of gitRuns(parsed, cwd, paths) ?? []) {
    if (
      !readsStoredText(
        run.sub,
        run.args.map((word) => word.text),
      )
    )
      continue;
    const credential = paths.historyCredential(run.dir);
    if (credential !== null)
      return `git ${run.sub} would print what the repository in ${run.dir} stores, and a file version there holds ${credential.name}; Custode cuts it from what its own calls print, the agent's git does not`;
  }
  return null;
}
