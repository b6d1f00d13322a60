// A deleting action over a critical tree, however it is spelled: rm -r of the tree, find over it
// with -delete or -exec rm, shred or truncate of every file in it (`~/*`), or a deleter fed the
// tree's listing (`ls ~ | xargs rm -rf`, `rm -rf $(find ~)`). Law 1: none of these can be undone.
import type { ShellCommand, ShellWord } from '../runtime/shell/types.ts';
import { inlineCodeChangesFiles } from './code-effects.ts';
import {
  DELETERS,
  deleteTargets,
  findStarts,
  hasFlag,
  inlineCode,
  mayHaveFlag,
  operands,
} from './command-effects.ts';
import { gitCleanTargets } from './git-clean.ts';
import { interpreterFamily } from './programs.ts';
import { anyPath, isCriticalTree, literal, type ShellView } from './shell-view.ts';

// A name test narrows a find to some files only when it names something: -name '*' does not.
const NAME_TESTS = /^-(?:i?name|i?path|i?wholename|i?regex)$/;
const MATCHES_ANYTHING = /^[*?.]*$/;

/** find -name/-path with a pattern that names something narrows the walk to matching files. */
function narrowsByName(command: ShellCommand): boolean {
  return command.args.some(
    (a, i) => NAME_TESTS.test(a.text) && !MATCHES_ANYTHING.test(command.args[i + 1]?.text ?? ''),
  );
}

/** The paths a list the line wrote earlier names (`echo ~ > list; … list`); none for other files. */
/** The paths a list file names: written by the line itself, or already on disk. */
function writtenList(file: ShellWord | undefined, view: ShellView): string[] {
  if (file === undefined) return [];
  const text = view.fileText(file);
  if (text === null) return [];
  return text.split(/\s+/).flatMap((token) => (token === '' ? [] : view.paths(literal(token))));
}

/** The files xargs reads its arguments from besides a pipe: `< list`, `-a list`, `--arg-file=list`. */
function xargsFiles(command: ShellCommand): (ShellWord | undefined)[] {
  const xargs = command.wrappers.find((w) => w.name === 'xargs');
  if (xargs === undefined) return [];
  const files: (ShellWord | undefined)[] = command.redirects
    .filter((r) => r.op === '<')
    .map((r) => r.target ?? undefined);
  xargs.args.forEach((arg, i) => {
    if (arg.text === '-a' || arg.text === '--arg-file') files.push(xargs.args[i + 1]);
    else if (/^(?:-a|--arg-file=)./.test(arg.text))
      files.push(literal(arg.text.replace(/^(?:-a|--arg-file=)/, '')));
  });
  return files;
}

/** The words xargs reads from text the line hands it: a here-string (`<<< ~`) or here-document. */
function xargsStdin(command: ShellCommand): ShellWord[] {
  if (!command.wrappers.some((w) => w.name === 'xargs')) return [];
  const hereStrings = command.redirects.flatMap((r) =>
    r.op === '<<<' && r.target !== null ? [r.target] : [],
  );
  const lines = command.redirects.some((r) => r.op.startsWith('<<') && r.op !== '<<<')
    ? (command.stdinText ?? '')
        .split(/\s+/)
        .filter((token) => token !== '')
        .map(literal)
    : [];
  return [...hereStrings, ...lines];
}

/** The trees a command prints the entries of (what a deleter fed its output would take). */
function listedTrees(command: ShellCommand, view: ShellView): string[] {
  const args = command.args;
  const paths = (words: readonly ShellWord[]): string[] => words.flatMap((w) => view.paths(w));
  switch (command.binary) {
    case 'cat':
      return [...operands(args), ...command.redirects.map((r) => r.target ?? undefined)].flatMap(
        (file) => writtenList(file, view),
      );
    case 'echo':
    case 'printf':
      return paths(operands(args));
    case 'ls': {
      const listed = operands(args);
      // ls with no operand lists where it runs (shell_exec starts in the home).
      return paths(listed.length > 0 ? listed : [literal('.')]).map((p) => `${p}/*`);
    }
    case 'find':
      return narrowsByName(command) ? [] : paths(findStarts(command));
    default:
      return [];
  }
}

/** Commands whose output becomes this command's arguments: earlier stages for xargs, or substitutions. */
function argumentFeeders(command: ShellCommand, commands: readonly ShellCommand[]): ShellCommand[] {
  const index = commands.indexOf(command);
  const viaXargs = command.wrappers.some((w) => w.name === 'xargs');
  return commands.filter(
    (o) =>
      (o.parent === index && o.origin === 'substitution') ||
      (viaXargs &&
        o.pipeline.id === command.pipeline.id &&
        o.pipeline.stage < command.pipeline.stage),
  );
}

/**
 * A shell that xargs runs once per listed name and whose script deletes (`xargs -I{} sh -c 'gpg
 * -c {} && rm {}'`): each name it is fed is deleted, as if xargs ran the deleter itself.
 */
function shellPayloadDeletes(command: ShellCommand, commands: readonly ShellCommand[]): boolean {
  if (!command.wrappers.some((w) => w.name === 'xargs')) return false;
  const index = commands.indexOf(command);
  return commands.some(
    (o) =>
      o.parent === index && o.origin === 'payload' && o.binary !== null && DELETERS.has(o.binary),
  );
}

// Inline code that deletes a tree, and a tree it names that is / or the home.
const INLINE_TREE_DELETE =
  /\b(?:rmtree|rm_rf|rm_r|remove_tree|rmSync|rimraf|RemoveAll|removeRecursively)\b/;
const INLINE_CRITICAL =
  /expanduser\(\s*['"]~\/?['"]\s*\)|Path\.home\(\)|homedir\(\)|\$ENV\{HOME\}|ENV\[['"]HOME['"]\]|environ(?:\.get\(|\[)\s*['"]HOME['"]|getenv\(\s*['"]HOME['"]|process\.env(?:\.HOME\b|\[\s*['"]HOME['"]\s*\])|Dir\.home|\(\s*['"](?:\/|~\/?)['"]\s*[,)]/;
// String literals in inline code that read as paths (`'..'`, `'./'`, `'/home/ada'`, `'~/x'`).
const INLINE_PATH_LITERAL = /(['"])([~./][^'"\n]*)\1/g;

// Inline code that visits every file below a root: os.walk, rglob, recursive globs and readdirs,
// perl's File::Find, ruby's Find.find.
const INLINE_TREE_WALK =
  /\bos\.walk\b|\.rglob\s*\(|\b(?:i?glob|readdir(?:Sync)?|opendir(?:Sync)?)\s*\([^;\n]{0,200}?\brecursive\s*[=:]\s*(?:True|true)\b|\bFind\.find\b|\bfind\s*\(\s*(?:sub\b|\\&|\{)|\bwalkSync\b|[/'"]\*\*|\*\*[/'"]/;

/**
 * Inline code that deletes a tree, or walks one and writes or deletes its files (encrypting
 * every file in place), and names / or the home, directly or as a path from its cwd
 * (`rmtree('..')`).
 */
function codeWipesCriticalTree(
  code: string,
  family: string,
  view: ShellView,
  critical: (p: string) => boolean,
) {
  const wipes =
    INLINE_TREE_DELETE.test(code) ||
    (INLINE_TREE_WALK.test(code) && inlineCodeChangesFiles(code, family));
  if (!wipes) return false;
  if (INLINE_CRITICAL.test(code)) return true;
  return [...code.matchAll(INLINE_PATH_LITERAL)].some((m) =>
    view.paths(literal(m[2] as string)).some(critical),
  );
}

/** A deleting command that takes a critical tree, or every file in one. */
export function wipesCriticalTree(command: ShellCommand, view: ShellView): boolean {
  const critical = (p: string): boolean => isCriticalTree(p, view.home);
  const b = command.binary;
  if (b === null) return false;
  const code = inlineCode(command);
  if (code !== null) return codeWipesCriticalTree(code, interpreterFamily(b) ?? b, view, critical);
  if (b === 'find')
    return !narrowsByName(command) && anyPath(deleteTargets(command), view, critical);
  if (b === 'mv') return anyPath(operands(command.args).slice(0, -1), view, critical);
  if (b === 'git') return gitCleanTargets(command, view).some(critical);
  // rsync --delete (or --del, its alias of --delete-during) onto / makes it a copy of the (often
  // empty) source.
  if (
    b === 'rsync' &&
    command.args.some((a) => a.text === '--del' || a.text.startsWith('--delete'))
  )
    return anyPath(operands(command.args).slice(-1), view, critical);
  if (shellPayloadDeletes(command, view.parsed.commands))
    return argumentFeeders(command, view.parsed.commands).some((o) =>
      listedTrees(o, view).some(critical),
    );
  // Archivers that delete what they pack once it is in the archive.
  const packsAway =
    (b === 'tar' && command.args.some((a) => a.text === '--remove-files')) ||
    (b === 'zip' && hasFlag(command.args, 'm', ['--move']));
  if (packsAway) return anyPath(operands(command.args), view, critical);
  if (!DELETERS.has(b)) return false;
  const recursive =
    b === 'rm' && mayHaveFlag(command.args, 'rR', ['--recursive'], view.parsed.variables);
  // Without -r a deleter takes the files a glob names (shred -u ~/*), not the tree itself.
  const targets = deleteTargets(command).filter((w) => recursive || w.glob);
  if (anyPath(targets, view, critical)) return true;
  if (xargsFiles(command).some((file) => writtenList(file, view).some(critical))) return true;
  if (xargsStdin(command).some((word) => view.paths(word).some(critical))) return true;
  return argumentFeeders(command, view.parsed.commands).some((o) =>
    listedTrees(o, view).some(critical),
  );
}
