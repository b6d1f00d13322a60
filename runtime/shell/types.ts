// The normalised view of a shell command line that the guard, the scope stage and the
// read-only catalogue all judge. Plain data: the constitution imports these types and nothing else.

/** A piece of a word after quote removal: literal text, a variable reference, or anything run-time. */
export type WordPart =
  | { readonly kind: 'text'; readonly text: string }
  /**
   * A variable's value; `otherwise` is the word `${name:-word}` / `${name:=word}` (and their
   * forms without `:`) give when the variable is unset or empty.
   */
  | { readonly kind: 'var'; readonly name: string; readonly otherwise?: ShellWord }
  /**
   * Known only at run time; `output` is set when it is plainly a literal echo (`$(echo /)`),
   * `printsName` (the glob its output always matches) when it runs a command that prints one
   * plain name (`$(date +%F)` prints `????-??-??`, name-output.ts), `objectNames` when it prints
   * only git commit names (`$(git rev-list -n 1 HEAD)`), `derived` what it is made from when a
   * reader that knows variables and directories may compute it (`${HOME%/}`, `$(dirname ~/x)`).
   */
  | {
      readonly kind: 'dynamic';
      readonly output: string | null;
      readonly printsName?: string;
      readonly objectNames?: true;
      readonly derived?: Derivation;
    };

/**
 * How a run-time piece is made: a variable through an operator (`%/`, `^^`, `:0:3`, `/x/y`,
 * `length` for `${#x}`; null when the operator holds an expansion or a quote), the words of the
 * one simple command a `$(…)` runs, or the directory a `$(cd DIR && pwd)` prints.
 */
export type Derivation =
  | { readonly from: 'variable'; readonly name: string; readonly operator: string | null }
  | { readonly from: 'command'; readonly words: readonly ShellWord[] }
  /** `$(cd DIR && pwd)`: the directory DIR leads to, as cd (logical) follows it. */
  | { readonly from: 'directory'; readonly word: ShellWord };

/** One shell word after resolving quotes and escapes. */
export interface ShellWord {
  /** The resolved text; variables show as ${name}, substitutions as $(...). Exact only when literal. */
  readonly text: string;
  /** No $x, $(...), backticks, unquoted glob (* ? [) or brace expansion: the text is what runs. */
  readonly literal: boolean;
  /** An unquoted glob character is present (the shell would expand it against the file system). */
  readonly glob: boolean;
  readonly parts: readonly WordPart[];
}

/** One redirection, e.g. `2>/dev/null` or `>> ~/.bashrc`. */
export interface ShellRedirect {
  /** The operator as written: > >> < &> &>> >& <& >| <> << <<< ... */
  readonly op: string;
  /** The target word; null for here-documents. */
  readonly target: ShellWord | null;
  /** True when the redirect can create or change a file (not a fd dup, not /dev/null and friends). */
  readonly writes: boolean;
}

/** Where a simple command came from. */
export type CommandOrigin =
  'top' | 'substitution' | 'process-substitution' | 'function' | 'payload';

/** A wrapper that was peeled off to find the command it runs (sudo, env, timeout ...). */
export interface ShellWrapper {
  readonly name: string;
  readonly args: readonly ShellWord[];
}

/** One simple command, wherever it appeared in the text. */
export interface ShellCommand {
  /** The command word after unwrapping; null for a bare redirect like `> file`. */
  readonly name: ShellWord | null;
  /**
   * Basename of the command name as bash reads it (`/bin/rm`, `$"rm"` -> `rm`); null when a
   * piece of it is known only at run time.
   */
  readonly binary: string | null;
  readonly args: readonly ShellWord[];
  readonly redirects: readonly ShellRedirect[];
  readonly assignments: readonly { readonly name: string; readonly value: ShellWord }[];
  readonly origin: CommandOrigin;
  /** Wrappers peeled off, outermost first. */
  readonly wrappers: readonly ShellWrapper[];
  /** Nesting depth of re-parsed payloads (bash -c, eval); 0 at the top. */
  readonly depth: number;
  /** Index (in ParsedShell.commands) of the command whose argument held this substitution. */
  readonly parent: number | null;
  /** The pipeline this command is a stage of: same id = same pipeline. */
  readonly pipeline: { readonly id: number; readonly stage: number; readonly length: number };
  /** Run in the background with `&` (directly or through an enclosing group). */
  readonly background: boolean;
  /**
   * The child shells it runs in, outermost first (`( )`, a pipeline stage, a substitution, `&`);
   * empty in the main shell. A `cd` lasts for later commands of the same or a nested scope only.
   */
  readonly scope: readonly number[];
  /** The shell function whose body holds this command, if any. */
  readonly fn: string | null;
  /** A declaration builtin (export, local, declare, readonly, typeset): sets variables, runs nothing. */
  readonly declaration: boolean;
  /** Here-document or here-string text fed to this command's stdin. */
  readonly stdinText: string | null;
  /**
   * The header of the innermost while/until or C-style for loop around it, as written up to
   * `do` (`while true`, `until false`, `for ((;;))`); null outside such a loop.
   */
  readonly loop: string | null;
}

/** A line with one `for NAME in WORDS; do BODY; done` at its top (for-loop.ts). */
export interface ForLoop {
  readonly variable: string;
  /** The words after `in`, as written (quotes and globs as they are). */
  readonly values: readonly string[];
  /** The statements between `do` and `done`, each as written. */
  readonly body: readonly string[];
  /** The line's text before the loop (`mkdir -p ~/Pictures && `), and after it. */
  readonly before: string;
  readonly after: string;
  /** Counters set to a number before the loop by a statement of their own (see for-loop.ts). */
  readonly counterStarts: readonly LoopCounterStart[];
}

/** `n=1` before a loop: the counter, its start, and the text before the loop without it. */
export interface LoopCounterStart {
  readonly name: string;
  readonly start: number;
  readonly before: string;
}

/** The whole command line, normalised. */
export interface ParsedShell {
  readonly source: string;
  /** The text did not parse cleanly (or nesting was too deep): judge it conservatively. */
  readonly errors: boolean;
  readonly commands: readonly ShellCommand[];
  /** Literal values ever assigned to each variable (assignments, for-loop lists). */
  readonly variables: ReadonlyMap<string, readonly string[]>;
  /** Variables a `for` or `select` loop sets, with or without a list. */
  readonly loopVariables: ReadonlySet<string>;
  /** Names of shell functions defined in the text. */
  readonly functions: ReadonlySet<string>;
  /** Any $(...), backticks or <(...) anywhere. */
  readonly hasSubstitution: boolean;
  /** The elements' text when the whole line is one `&&` chain (a && b && c); else null. */
  readonly andChain: readonly string[] | null;
  /** The one `for … in …; do …; done` at the line's top (for-loop.ts); else null. */
  readonly forLoop: ForLoop | null;
  /**
   * Text the line writes into files, by the file's name as written (`./` dropped): a literal
   * echo/printf or a here-document sent there. A script among them is parsed where it runs.
   */
  readonly written: ReadonlyMap<string, string>;
}
