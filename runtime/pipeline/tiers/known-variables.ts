// `echo $PATH`, `ls $HOME/notes`: a command run by Custode sees only the variables commandEnv
// passes (PATH, HOME, USER ...: no API key, no token), with the values the daemon has now. Such
// a variable used as a word is judged as its value, so the tiers check `$HOME/.ssh` as the path
// it is. Only when the value is one plain word (no blank, no glob character, which an unquoted
// expansion would split or expand; no `~`, which an expansion keeps literal where the tiers would
// read the home) and nothing in the line can change the variable: no
// assignment, for-loop or declaration of it, no builtin that sets variables. Any other variable
// keeps its word run-time (and the line asks). The executor runs the line unchanged.
import { commandEnv } from '../../../executors/shell-exec.ts';
import type { ParsedShell, ShellCommand, ShellWord, WordPart } from '../../shell/types.ts';

// Builtins that set a variable named in their words (read NAME, printf -v NAME, getopts ... NAME),
// or run text that could (eval, source).
export const SETS_VARIABLES: ReadonlySet<string> = new Set([
  'read',
  'readarray',
  'mapfile',
  'printf',
  'getopts',
  'unset',
  'eval',
  'source',
  '.',
  'set',
  'export',
  'declare',
  'typeset',
  'local',
  'readonly',
]);

/** The variables a command sees whose value is one plain word; none when the line may set any. */
function plainValues(shell: ParsedShell, env: NodeJS.ProcessEnv): ReadonlyMap<string, string> {
  const changes = shell.commands.some(
    (c) =>
      c.declaration ||
      c.assignments.length > 0 ||
      c.binary === null ||
      SETS_VARIABLES.has(c.binary) ||
      c.wrappers.length > 0,
  );
  if (changes) return new Map();
  const values = new Map<string, string>();
  for (const [name, value] of Object.entries(commandEnv(env))) {
    if (
      value !== undefined &&
      value !== '' &&
      !/[\s*?[\]\\~$`]/.test(value) &&
      !shell.variables.has(name)
    )
      values.set(name, value);
  }
  return values;
}

function valued(word: ShellWord, values: ReadonlyMap<string, string>): ShellWord {
  if (!word.parts.some((part) => part.kind === 'var')) return word;
  if (
    !word.parts.every(
      (part) => part.kind === 'text' || (part.kind === 'var' && values.has(part.name)),
    )
  )
    return word;
  const text = word.parts
    .map((part) =>
      part.kind === 'text' ? part.text : part.kind === 'var' ? (values.get(part.name) ?? '') : '',
    )
    .join('');
  const parts: readonly WordPart[] = [{ kind: 'text', text }];
  return { text, literal: !word.glob, glob: word.glob, parts };
}

function withValues(command: ShellCommand, values: ReadonlyMap<string, string>): ShellCommand {
  return {
    ...command,
    args: command.args.map((word) => valued(word, values)),
    redirects: command.redirects.map((r) =>
      r.target === null ? r : { ...r, target: valued(r.target, values) },
    ),
  };
}

/** The line with each plain-valued variable of the command env judged as its value. */
export function judgeKnownVariables(shell: ParsedShell, env: NodeJS.ProcessEnv): ParsedShell {
  const values = plainValues(shell, env);
  if (values.size === 0) return shell;
  return { ...shell, commands: shell.commands.map((command) => withValues(command, values)) };
}
