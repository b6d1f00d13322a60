// `jq '.version = "1.0.1"' package.json > package.json.tmp && mv package.json.tmp package.json`:
// a tool with no in-place option, its output saved to a new file then moved over the original. It
// is an in-place edit in two steps, judged by the same question (files.ts restorableFile): the
// file it replaces is tracked and unmodified in its git work tree, inside roots.write, not
// hidden or protected, reached through no link, so git can give it back. The first command is
// read-only once its one `>` is taken away, that file is new and next to the replaced one, `mv`
// takes no option, and anything after the `mv` in the `&&` chain is read-only (`&& git diff`).
// The new file is one the workspace could create (a failed first step leaves it behind).
// The executor asks git again right before the run; a failed first step leaves the new file.
import { dirname, join } from 'node:path';
import type { ParsedShell, ShellCommand } from '../../shell/types.ts';
import type { ReadOnlyCatalogue } from '../read-only.ts';
import { readOnlyRuleFor } from '../read-only-policy.ts';
import type { WorkspaceDecision, WorkspaceScope } from '../workspace/policy.ts';
import { writableFor } from '../workspace/targets.ts';
import {
  namedPath,
  RESTORABLE,
  restorableFile,
  workspaceAllow,
  type TrackedClean,
} from './files.ts';

/** The one literal `>` file of a command with no other redirection that writes, or null. */
function savedTo(command: ShellCommand): string | null {
  const writes = command.redirects.filter((redirect) => redirect.writes);
  const [only] = writes;
  if (writes.length !== 1 || only === undefined || only.op !== '>') return null;
  return only.target?.literal === true && !only.target.glob ? only.target.text : null;
}

/** `mv FROM TO` with no option and two literal words, or null. */
function plainMove(command: ShellCommand | undefined): { from: string; to: string } | null {
  if (command?.binary !== 'mv' || command.redirects.length > 0) return null;
  if (command.wrappers.length > 0 || command.assignments.length > 0) return null;
  const [from, to, ...more] = command.args;
  if (from === undefined || to === undefined || more.length > 0) return null;
  if (![from, to].every((word) => word.literal && !word.glob && !word.text.startsWith('-')))
    return null;
  return { from: from.text, to: to.text };
}

/** One command as a line of its own (for the read-only catalogue). */
function alone(shell: ParsedShell, command: ShellCommand): ParsedShell {
  return { ...shell, commands: [command], andChain: null };
}

/**
 * The workspace decision for `READER > NEW && mv NEW FILE [&& READ-ONLY …]` where git can give
 * FILE back, or null (it asks).
 */
export async function rewriteThroughTempDecision(
  shell: ParsedShell,
  readOnly: ReadOnlyCatalogue | null,
  scope: WorkspaceScope,
  trackedClean: TrackedClean,
): Promise<WorkspaceDecision | null> {
  const chain = shell.andChain;
  const [reader, move, ...rest] = shell.commands;
  if (readOnly === null || chain === null || chain.length !== shell.commands.length) return null;
  if (reader === undefined || shell.hasSubstitution || shell.errors) return null;
  const temp = savedTo(reader);
  const moved = plainMove(move);
  if (temp === null || moved === null) return null;
  const [tempPath, from, file] = [temp, moved.from, moved.to].map((word) => namedPath(word, scope));
  if (tempPath == null || from !== tempPath || file == null) return null;
  if (dirname(tempPath) !== dirname(file) || scope.entryExists(tempPath)) return null;
  const quiet = { ...reader, redirects: reader.redirects.filter((redirect) => !redirect.writes) };
  const reads = [quiet, ...rest].every(
    (command) => readOnlyRuleFor(alone(shell, command), readOnly, scope) !== null,
  );
  // A directory would take NEW inside it; a link would be replaced by a plain file.
  if (!reads || !scope.isPlainFile(file) || scope.paths.real(file) !== file) return null;
  // A failed first step leaves the new file, its text the command's choice: it must be one the
  // workspace could create (no hidden name such as .git or .envrc), and is recorded as written.
  const created = writableFor([{ path: temp, mode: 'create' }], scope);
  const real = await restorableFile(file, scope, trackedClean);
  if (real === null || created === null || created.written.length !== 1) return null;
  const dir = dirname(real);
  const decision = workspaceAllow(
    `${reader.binary ?? ''} > new, mv: ${RESTORABLE}`,
    [dir],
    [real, ...created.written],
    true,
  );
  // A file at a work tree's top makes the top writable: its history stays read-only.
  const history = join(dir, '.git');
  return { ...decision, readOnlyWithin: scope.isDirectory(history) ? [history] : [] };
}
