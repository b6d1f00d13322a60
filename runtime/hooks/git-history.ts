// Git in the agent's own shell prints what its repository stores as it is: Custode cuts
// credentials out of what its own calls print (executors/shown-text.ts), the agent's shell does
// not. A line that prints or searches file contents (constitution/git-stored-text.ts) from a
// repository whose stored file versions hold a credential (a key committed once and removed
// since) asks; one that reads none (`git status`) does not. A line that prints messages (`git log
// --oneline`, `git branch -v`) asks where a commit or tag message holds one.
import type { ParsedShell } from '../shell/types.ts';
import type { PathOracle } from '../pipeline/paths.ts';
import { gitRuns } from './git-on-host.ts';
import { messageForm, readsStoredText, readsWorkTree } from '../../constitution/git-stored-text.ts';

/** Why git in this line would print a credential its repository stores; null if it cannot. */
export function gitHistoryOnHost(
  parsed: ParsedShell,
  cwd: string,
  paths: PathOracle,
): string | null {
  for (const run of gitRuns(parsed, cwd, paths) ?? []) {
    const words = run.args.map((word) => word.text);
    const credential = readsStoredText(run.sub, words)
      ? paths.historyCredential(run.dir, { workTree: readsWorkTree(run.sub, words) })
      : messageForm(run.sub, words) !== 'none'
        ? paths.messageCredential(run.dir)
        : null;
    if (credential !== null)
      return `git ${run.sub} would print what the repository in ${run.dir} stores, and a file version or message there holds ${credential.name}; Custode cuts it from what its own calls print, the agent's git does not`;
  }
  return null;
}
