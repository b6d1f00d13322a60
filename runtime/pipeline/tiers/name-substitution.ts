// `> notes/journal/$(date +%F).md`: a substitution that prints one plain name (name-output.ts)
// is judged as a name the tiers cannot know. Its word becomes a pattern with the glob of its
// output in its place (`????-??-??` for +%F), which the tiers already judge by every name it
// could be: a read stays in a plain tree, a new file must have no name in its directory that
// the pattern matches. `basename "a/IMG_1.jpg"` is computed now and stands as its output.
// `git show $(git rev-list -n 1 HEAD -- test)`: a substitution that prints only commit names,
// standing whole as a revision of git's show, log or diff, is judged as `HEAD`: any commit is
// read the same way, none of them can be an option or a path. Any other substitution,
// or one standing as a command's name, keeps the line out of the tiers (it asks).
import type { ParsedShell, ShellCommand, ShellWord } from '../../shell/types.ts';
import { nameOutputPattern, printsObjectNames, referencedFile } from '../../shell/name-output.ts';

/** git subcommands whose words before `--` are revisions, which read history and write nothing. */
const READS_REVISIONS: ReadonlySet<string> = new Set(['show', 'log', 'diff', 'shortlog']);

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

/** A word that is one substitution printing commit names, and nothing else. */
function commitNames(word: ShellWord): boolean {
  const [part, ...more] = word.parts;
  return more.length === 0 && part?.kind === 'dynamic' && part.objectNames === true;
}

const HEAD: ShellWord = {
  text: 'HEAD',
  literal: true,
  glob: false,
  parts: [{ kind: 'text', text: 'HEAD' }],
};

/** git show/log/diff's words with each whole commit-names substitution before `--` as `HEAD`. */
function revisionsAsHead(command: ShellCommand): readonly ShellWord[] {
  const [subcommand] = command.args;
  const texts = command.args.map((arg) => arg.text);
  const reads =
    command.binary === 'git' &&
    subcommand?.literal === true &&
    READS_REVISIONS.has(subcommand.text) &&
    !texts.includes('--no-index');
  if (!reads) return command.args;
  const end = texts.indexOf('--');
  return command.args.map((arg, i) => ((end < 0 || i < end) && commitNames(arg) ? HEAD : arg));
}

function withPatterns(command: ShellCommand): ShellCommand {
  return {
    ...command,
    args: revisionsAsHead(command).map(asPattern),
    redirects: command.redirects.map((r) =>
      r.target === null ? r : { ...r, target: asPattern(r.target) },
    ),
  };
}

/**
 * A substitution's own command that prints names (one plain name, or commit names) and does
 * nothing else; a file whose time it prints is there now (date prints nothing for a missing one).
 */
function printsNames(command: ShellCommand, exists: (word: string) => boolean): boolean {
  if (command.origin !== 'substitution' || command.name === null) return false;
  if (command.redirects.length > 0 || command.assignments.length > 0) return false;
  if (command.wrappers.length > 0) return false;
  const file = referencedFile(command.name, command.args);
  if (file !== null && !exists(file)) return false;
  return (
    nameOutputPattern(command.name, command.args) !== null ||
    printsObjectNames(command.name, command.args)
  );
}

/**
 * The line with its name-printing substitutions judged as names; as given when it has another
 * kind, or sets IFS (which would split a name). `exists` says whether a word names something now.
 */
export function judgeNamesAsPatterns(
  shell: ParsedShell,
  exists: (word: string) => boolean,
): ParsedShell {
  if (!shell.hasSubstitution || shell.errors || shell.variables.has('IFS')) return shell;
  const inner = shell.commands.filter((command) => command.origin !== 'top');
  if (inner.length === 0 || !inner.every((command) => printsNames(command, exists))) return shell;
  const top = shell.commands.filter((command) => command.origin === 'top').map(withPatterns);
  return { ...shell, commands: top, hasSubstitution: false };
}
