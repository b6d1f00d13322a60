// Process-table exhaustion, however it is written: a shell function that pipes or backgrounds
// itself (`:(){ :|:& };:`), an endless loop that backgrounds a command each turn (`while true;
// do x & done`), or an interpreter one-liner that forks in a loop (`perl -e 'fork while 1'`).
import type { ShellCommand } from '../runtime/shell/types.ts';
import { inlineCode } from './command-effects.ts';

// Loop headers whose condition never changes: while true/:/[ 1 ], until false, for ((;;)).
const ENDLESS_LOOP =
  /^(?:while (?:true|:|\/bin\/true|\[ 1 \]|\(\( ?1 ?\)\))|until (?:false|\/bin\/false|! true)|for \(\( ?[^;]*; ?; ?[^)]*\)\))$/;
// A fork in an interpreter: os.fork(), fork, Process.fork, child_process.fork, pcntl_fork().
const FORK_CALL = /\b(?:pcntl_)?fork\b/;
// A construct that repeats: while/for/until/loop/each/times/repeat, perl's `fork while`, JS timers.
// No leading \b: a newline lost between `import os` and `while` must not hide the loop.
const REPEATS = /(?:while|for|until|loop|each|times|repeat|goto|redo)\b|setInterval/;

/** A command that, run as written, forks without bound. */
export function isForkBomb(command: ShellCommand): boolean {
  const selfCall = command.fn !== null && command.binary === command.fn;
  if (selfCall && (command.pipeline.length > 1 || command.background)) return true;
  if (command.background && command.loop !== null && ENDLESS_LOOP.test(command.loop)) return true;
  const code = inlineCode(command);
  return code !== null && FORK_CALL.test(code) && REPEATS.test(code);
}
