// How the command line reaches bash: in the environment, never in an argv. `pgrep -f PATTERN` and
// `pkill -f PATTERN` match every process whose argv holds PATTERN, and bwrap's (or bash's) argv
// held the whole line: `pgrep -af "node server.js"` found its own wrapper, and an approved
// `pkill -f "node server.js"` killed the sandbox before it reached the server.

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
