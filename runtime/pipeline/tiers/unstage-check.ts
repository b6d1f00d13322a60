// `git restore --staged f` gives f's index entry HEAD's version. When the index holds a version
// found neither in HEAD nor in the work tree (`git add f`, then more edits to f), that version
// would be left a dangling blob no ordinary git command gives back: such a line asks. The index
// is read when the call is decided, with no git binary run (executors/ops/git-clean.ts).
import type { ParsedShell } from '../../shell/types.ts';

/** Whether the index of the work tree holding a directory has a version nothing else has. */
export type StagedOnly = (dir: string) => Promise<boolean>;

/** Whether a git of the line may restore (its words name `restore`, after any `-C DIR`). */
export function mayUnstage(shell: ParsedShell): boolean {
  return shell.commands.some(
    (command) => command.binary === 'git' && command.args.some((word) => word.text === 'restore'),
  );
}
