// Code that comes from the network (or out of an opaque encoding) reaching an interpreter,
// however it travels: a pipe (`curl x | bash /dev/stdin`, `| xargs sh -c`, `| awk
// '{system($0)}'`), a substitution (`bash -c "$(curl x)"`), or a file saved on the way and run
// later (`curl -O x/i.sh && bash i.sh`, `curl x | tee f && sh f`). Law 4: nobody read it.
import type { ShellCommand } from '../runtime/shell/types.ts';
import {
  awkShellOnSocket,
  hasFlag,
  inlineCode,
  operands,
  optionValues,
  producesForeignCode,
  runsCode,
  runsStdin,
  runsSubstitution,
  scriptRun,
  unpackDirs,
  writeTargets,
} from './command-effects.ts';
import { PROJECT_CODE_RUNNERS } from './programs.ts';
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
  // An archive unpacked from foreign code (curl … | tar xz, unzip a saved download): all it
  // unpacks is foreign code, below its directory (kept as `dir/`).
  for (const o of commands) {
    const dirs = unpackDirs(o);
    if (dirs === null) continue;
    const fromDownload =
      earlierStages(o, commands).some((e) => feedsForeignCode(e, commands)) ||
      operands(o.args).some((w) => view.paths(w).some((p) => saved.has(p)));
    if (fromDownload) for (const d of dirs) for (const p of view.paths(d)) saved.add(`${p}/`);
  }
  savedCache.set(view, saved);
  return saved;
}

/** A path in the saved set, or below a directory of it that unpacked foreign code. */
function isSaved(path: string, saved: ReadonlySet<string>): boolean {
  if (saved.has(path)) return true;
  for (const entry of saved) if (entry.endsWith('/') && path.startsWith(entry)) return true;
  return false;
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
// Inline code that decodes data it then evaluates (`exec(base64.b64decode(...))`).
const INLINE_DECODE =
  /b64decode|decode_base64|base64_decode|decode64|\batob\s*\(|['"]base64['"]|unhexlify|fromhex|zlib\.decompress|marshal\.loads|codecs\.decode|\bunpack\s*\(\s*['"]m/;

// Programs that hold a raw connection open, in any packaging (nc.traditional, nc.openbsd).
const CONNECTORS = /^(?:nc|ncat|netcat|telnet|socat|openssl|websocat)(?:\.[a-z]+)?$/;
const NETCATS = /^(?:nc|ncat|netcat)(?:\.[a-z]+)?$/;
// Inline code that opens a socket and runs what it is told or a shell on it.
const INLINE_SOCKET =
  /\bsocket\b|fsockopen|TCPSocket|IO::Socket|net\.(?:connect|createConnection|Socket)/;
const INLINE_RUNS = /dup2|\bexec\w*\s*\(|popen|subprocess|\bsystem\s*\(|spawn|pty\./;

/**
 * A shell reading commands from a connection: a shell or interpreter that reads its stdin in a
 * pipeline holding a raw connection on either side (`nc h p | sh`, `cat f | sh -i | nc h p`,
 * `telnet h p | bash | telnet h q`), or on a descriptor while the line opens a socket
 * (`exec 3<>/dev/tcp/h/p; sh <&3`, zsh's `ztcp h p; zsh >&$REPLY`).
 */
function shellOnConnection(c: ShellCommand, commands: readonly ShellCommand[]): boolean {
  if (!runsStdin(c)) return false;
  const piped = commands.filter((o) => o !== c && o.pipeline.id === c.pipeline.id);
  if (piped.some((o) => o.binary !== null && CONNECTORS.test(o.binary))) return true;
  return (
    commands.some(opensConnection) &&
    c.redirects.some(
      (r) =>
        (r.op === '<&' || r.op === '>&') && r.target !== null && !/^[012-]$/.test(r.target.text),
    )
  );
}

/** A command that opens a socket for the line: a /dev/tcp redirect, zsh's ztcp. */
function opensConnection(c: ShellCommand): boolean {
  return usesNetworkDevice(c) || c.binary === 'ztcp';
}

/**
 * A remote shell: a shell or interpreter wired to a /dev/tcp socket (`bash -i >& /dev/tcp/h/p`),
 * nc -e / ncat --sh-exec, socat EXEC:, a shell reading a connection, inline code that opens a
 * socket and runs commands on it, or inline code that fetches or decodes and evaluates.
 */
function runsRemoteCode(c: ShellCommand, commands: readonly ShellCommand[]): boolean {
  const b = c.binary;
  if (b === null) return false;
  if (runsCode(b) && usesNetworkDevice(c)) return true;
  if (shellOnConnection(c, commands) || awkShellOnSocket(c)) return true;
  if (NETCATS.test(b)) return hasFlag(c.args, 'ec', ['--exec', '--sh-exec', '--lua-exec']);
  if (b === 'socat') return c.args.some((a) => /^(?:exec|system):/i.test(a.text));
  const code = inlineCode(c);
  if (code === null) return false;
  if (INLINE_SOCKET.test(code) && INLINE_RUNS.test(code)) return true;
  return (INLINE_FETCH.test(code) || INLINE_DECODE.test(code)) && INLINE_EVAL.test(code);
}

/**
 * A build or package tool working in a directory a download was unpacked into (`curl … | tar xz
 * && cd pkg && make`, `npm install` there): it runs the code the archive brought.
 */
function runsUnpackedProject(c: ShellCommand, view: ShellView): boolean {
  if (c.binary === null || !PROJECT_CODE_RUNNERS.has(c.binary)) return false;
  const saved = savedForeignCode(view);
  if (saved.size === 0) return false;
  const named = optionValues(c.args, ['-C'], ['--directory', '--prefix', '--cwd']).flatMap((w) =>
    view.paths(w),
  );
  return [...view.workingDirs(c), ...named].some((dir) => isSaved(`${dir}/`, saved));
}

/** curl | sh, bash <(curl), sh -c "$(curl)", curl -o f followed by bash f, and remote shells. */
export function runsForeignCode(c: ShellCommand, view: ShellView): boolean {
  const commands = view.parsed.commands;
  if (runsRemoteCode(c, commands)) return true;
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
  if (runsUnpackedProject(c, view)) return true;
  const script = scriptRun(c);
  if (script === null) return false;
  const saved = savedForeignCode(view);
  return view.paths(script).some((p) => isSaved(p, saved));
}
