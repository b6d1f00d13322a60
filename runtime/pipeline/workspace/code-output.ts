// Code nobody reviewed whose output is saved as one new file: `python3 -c '…' > ~/Documents/
// budget.json`. The code still runs read-only (code-view.ts, policy.ts readOnlyCode); the one
// thing it may write is that file, which must not exist yet and which the workspace tier could
// make (writableFor: inside roots.write, not hidden, not protected). The run makes it empty,
// failing if anything is there by then, and the sandbox binds that file alone read-write
// (executors/new-output-file.ts): the code can fill it, never touch a neighbour. It is recorded as
// unreviewed like every file written without a card.
import { dirname } from 'node:path';
import type { ParsedShell } from '../../shell/types.ts';
import { absoluteUserPath } from '../scope-paths.ts';
import { hasGlob, type WorkspaceMatch } from './match.ts';
import type { WorkspaceScope } from './policy.ts';
import { writableFor } from './targets.ts';

/** Redirections that make a file or add to one: on a file that does not exist, both make it. */
const MAKES_FILE: ReadonlySet<string> = new Set(['>', '>|', '&>', '>>', '&>>']);

/**
 * The one new file this read-only code line saves its output to, resolved, or null when the line
 * writes anything else, more than one file, a name that is a pattern, or a file the workspace tier
 * would not make: one that exists (a file, a link, a FIFO), one in a hidden or protected place,
 * outside roots.write, in a directory that does not exist, or named through a symbolic link.
 */
export function newOutputFile(
  shell: ParsedShell,
  match: WorkspaceMatch,
  scope: WorkspaceScope,
): string | null {
  if (match.repository || match.placed.length > 0 || match.targets.length !== 1) return null;
  // The one target is the line's one writing redirection, not a rule's (`tee`, `cp`, `mkdir`).
  const writing = shell.commands.flatMap((command) => command.redirects.filter((r) => r.writes));
  const [redirect] = writing;
  if (writing.length !== 1 || redirect === undefined || !MAKES_FILE.has(redirect.op)) return null;
  const [target] = match.targets;
  if (target === undefined || redirect.target?.text !== target.path || hasGlob(target.path))
    return null;
  const needs = writableFor([{ path: target.path, mode: 'create' }], scope);
  if (needs === null || needs.scratch || needs.written.length !== 1) return null;
  const [file] = needs.written;
  // Named as it is: the sandbox binds the file where the line names it, so no link on the way.
  const named = absoluteUserPath(target.path, scope.home, scope.cwd);
  if (file !== named || !scope.isDirectory(dirname(file))) return null;
  return file;
}
