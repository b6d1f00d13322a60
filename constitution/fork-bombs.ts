// Process-table exhaustion, however it is written: a shell function that pipes or backgrounds
// itself (`:(){ :|:& };:`), an endless loop that backgrounds a command each turn (`while true;
// do x & done`), an interpreter one-liner that forks in a loop (`perl -e 'fork while 1'`), or
// inline code that starts processes without waiting in a loop that never ends (`while 1:
// Process(...).start()`, `setInterval(() => spawn(...))`, awk's `system("x &")`), or xargs with no
// bound on parallel runs fed by a producer that never stops (`yes | xargs -P0 sh`, `seq inf`).
import type { ShellCommand } from '../runtime/shell/types.ts';
import { awkProgram, inlineCode } from './command-effects.ts';
import type { ShellView } from './shell-view.ts';

// Loop headers whose condition never changes: while true/:/[ 1 ], until false, for ((;;)).
const ENDLESS_LOOP =
  /^(?:while (?:true|:|\/bin\/true|\[ 1 \]|\(\( ?1 ?\)\))|until (?:false|\/bin\/false|! true)|for \(\( ?[^;]*; ?; ?[^)]*\)\))$/;
// A fork in an interpreter: os.fork(), fork, Process.fork, child_process.fork, pcntl_fork().
const FORK_CALL = /\b(?:pcntl_)?fork\b/;
// A construct that repeats: while/for/until/loop/each/times/repeat, perl's `fork while`, JS timers.
// No leading \b: a newline lost between `import os` and `while` must not hide the loop.
const REPEATS = /(?:while|for|until|loop|each|times|repeat|goto|redo)\b|setInterval/;

// A call that starts a process or thread and goes on without waiting for it: spawn, Popen,
// multiprocessing's Process, a Thread or Worker, node's exec, a shell command sent to the
// background (system("x &")). A call that waits (subprocess.run, execSync) only takes time.
const STARTS_WITHOUT_WAITING =
  /\b(?:spawn|Popen|Process|Thread|Worker|start_new_thread)\s*\(|\.(?:spawn|exec|execFile|fork)\s*\(|\bsystem\s*\([^)]*&\s*['"]/;
// A loop in code whose condition never changes: while True / while 1 / while(true), for(;;),
// loop { }, setInterval, iter(int, 1), itertools.count().
const ENDLESS_CODE =
  /while\s*\(?\s*(?:True|true|1|!0)\s*\)?\s*[:{]?|for\s*\(\s*;\s*;\s*\)|\bloop\b|setInterval|iter\(\s*int\s*,|itertools\.count\(|\bcount\(\)|until\s+false/;

// Producers that never stop: yes, seq to infinity, or cat of an endless device.
function endless(c: ShellCommand): boolean {
  if (c.binary === 'yes') return true;
  if (c.binary === 'seq') return c.args.some((a) => /^[+]?inf(?:inity)?$/i.test(a.text));
  return c.binary === 'cat' && c.args.some((a) => /^\/dev\/(?:zero|u?random)$/.test(a.text));
}

/** xargs told to run without a bound (-P 0), fed by a producer that never stops. */
function unboundedXargs(command: ShellCommand, commands: readonly ShellCommand[]): boolean {
  const xargs = command.wrappers.find((w) => w.name === 'xargs');
  if (xargs === undefined) return false;
  const unbounded = xargs.args.some(
    (a, i) =>
      /^(?:-P0|--max-procs=0)$/.test(a.text) ||
      (/^(?:-P|--max-procs)$/.test(a.text) && xargs.args[i + 1]?.text === '0'),
  );
  return (
    unbounded &&
    commands.some(
      (o) =>
        o.pipeline.id === command.pipeline.id &&
        o.pipeline.stage < command.pipeline.stage &&
        endless(o),
    )
  );
}

/** A command that, run as written, forks without bound. */
export function isForkBomb(command: ShellCommand, view?: ShellView): boolean {
  if (view !== undefined && unboundedXargs(command, view.parsed.commands)) return true;
  const selfCall = command.fn !== null && command.binary === command.fn;
  if (selfCall && (command.pipeline.length > 1 || command.background)) return true;
  if (command.background && command.loop !== null && ENDLESS_LOOP.test(command.loop)) return true;
  const code = inlineCode(command) ?? awkProgram(command);
  if (code === null) return false;
  if (FORK_CALL.test(code) && REPEATS.test(code)) return true;
  return STARTS_WITHOUT_WAITING.test(code) && ENDLESS_CODE.test(code);
}
