// `> notes/journal/$(date +%F).md`: a substitution that prints one plain name (name-output.ts)
// is judged as a name the tiers cannot know. Its word becomes a pattern with the glob of its
// output in its place (`????-??-??` for +%F), which the tiers already judge by every name it
// could be: a read stays in a plain tree, a new file must have no name in its directory that
// the pattern matches. Any other substitution,
// or one standing as a command's name, keeps the line out of the tiers (it asks).
import type { ParsedShell, ShellCommand, ShellWord } from '../../shell/types.ts';
import { nameOutputPattern } from '../../shell/name-output.ts';

/** The word with each name-printing substitution as its glob; as given when it holds anything else run-time. */
function asPattern(word: ShellWord): ShellWord {
  const names = word.parts.filter((part) => part.kind === 'dynamic');
  if (names.length === 0 || word.parts.some((p) => p.kind === 'var')) return word;
  if (!names.every((part) => part.kind === 'dynamic' && part.printsName !== undefined)) return word;
  const text = word.parts
    .map((part) =>
      part.kind === 'text' ? part.text : part.kind === 'dynamic' ? (part.printsName ?? '*') : '',
    )
    .join('');
  return { text, literal: false, glob: true, parts: [{ kind: 'text', text }] };
}

function withPatterns(command: ShellCommand): ShellCommand {
  return {
    ...command,
    args: command.args.map(asPattern),
    redirects: command.redirects.map((r) =>
      r.target === null ? r : { ...r, target: asPattern(r.target) },
    ),
  };
}

/** A substitution's own command that prints one name and does nothing else. */
function printsName(command: ShellCommand): boolean {
  return (
    command.origin === 'substitution' &&
    command.name !== null &&
    command.redirects.length === 0 &&
    command.assignments.length === 0 &&
    command.wrappers.length === 0 &&
    nameOutputPattern(command.name, command.args) !== null
  );
}

/** The line with its name-printing substitutions judged as names; as given when it has another kind. */
export function judgeNamesAsPatterns(shell: ParsedShell): ParsedShell {
  if (!shell.hasSubstitution || shell.errors) return shell;
  const inner = shell.commands.filter((command) => command.origin !== 'top');
  if (inner.length === 0 || !inner.every(printsName)) return shell;
  const top = shell.commands.filter((command) => command.origin === 'top').map(withPatterns);
  return { ...shell, commands: top, hasSubstitution: false };
}
