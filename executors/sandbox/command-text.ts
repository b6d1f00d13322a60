// How the command line reaches bash: in the environment or on a pipe, never in an argv. `pgrep -f
// PATTERN` and `pkill -f PATTERN` match every process whose argv holds PATTERN, and bwrap's (or
// bash's) argv held the whole line: `pgrep -af "node server.js"` found its own wrapper, and an
// approved `pkill -f "node server.js"` killed the sandbox before it reached the server.

/** The variable that carries the line; bash unsets it before the line runs. */
const LINE_VARIABLE = 'CUSTODE_SHELL_LINE';

/** bash's `-c` script: take the line out of the environment, then run it as `bash -c` would. */
const RUN_LINE = `__custode_line=$${LINE_VARIABLE}; unset ${LINE_VARIABLE}; eval "$__custode_line"`;

/** The words after the program: `-c SCRIPT bash ARGS...` ($0 is bash, the args are $1...). */
export function bashWords(args: readonly string[]): string[] {
  return ['-c', RUN_LINE, 'bash', ...args];
}

/** The environment that carries `command` to bashWords' script. */
export function lineEnv(env: NodeJS.ProcessEnv, command: string): NodeJS.ProcessEnv {
  return { ...env, [LINE_VARIABLE]: command };
}

/** The descriptor a pre-started sandbox's bash reads its words from (a socket pair with the daemon). */
export const WORDS_FD = 3;

/**
 * bash's `-c` script for a sandbox started before its command is known: say it is ready (one
 * byte on fd 3), read a count and that many NUL-ended words from fd 3 (the line, then $1...),
 * close fd 3 and every other fd above stderr, then run the line as `bash -c` would. Anything short of the whole message (the
 * daemon discarded the sandbox, or died) runs nothing.
 */
const RUN_PIPED_LINE = [
  `printf . >&${String(WORDS_FD)} || exit 125`,
  `IFS= read -r -d '' __custode_count <&${String(WORDS_FD)} || exit 125`,
  '__custode_words=()',
  `while (( \${#__custode_words[@]} < __custode_count )) && IFS= read -r -d '' __custode_word <&${String(WORDS_FD)}; do __custode_words+=("$__custode_word"); done`,
  `exec ${String(WORDS_FD)}>&-`,
  // Whatever else the daemon had open (a `3>>log`, a service manager's socket) closes here.
  'for __custode_fd in /proc/self/fd/*; do __custode_fd=${__custode_fd##*/}; (( __custode_fd > 2 )) && exec {__custode_fd}>&-; done',
  '(( __custode_count > 0 && ${#__custode_words[@]} == __custode_count )) || exit 125',
  'set -- "${__custode_words[@]:1}"',
  '__custode_line=${__custode_words[0]}',
  'unset __custode_count __custode_word __custode_words __custode_fd',
  'eval "$__custode_line"',
].join('\n');

/** The words after the program for a pre-started sandbox: `-c SCRIPT bash` (no args yet). */
export function pipedBashWords(): string[] {
  return ['-c', RUN_PIPED_LINE, 'bash'];
}

/**
 * What pipedBashWords' script reads: the count, the line and each arg, each ended by NUL.
 * Undefined when a word holds a NUL (it would split there; bash cannot hold one anyway).
 */
export function encodeWords(command: string, args: readonly string[]): Buffer | undefined {
  const words = [command, ...args];
  if (words.some((word) => word.includes('\0'))) return undefined;
  return Buffer.from([String(words.length), ...words].map((word) => `${word}\0`).join(''), 'utf8');
}
