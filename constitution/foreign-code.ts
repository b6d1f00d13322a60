// Code that comes from the network (or out of an opaque encoding) reaching an interpreter,
// however it travels: a pipe (`curl x | bash /dev/stdin`, `| xargs sh -c`, `| awk
// '{system($0)}'`), a substitution (`bash -c "$(curl x)"`), or a file saved on the way and run
// later (`curl -O x/i.sh && bash i.sh`, `curl x | tee f && sh f`). Law 4: nobody read it.
import type { ShellCommand, ShellWord } from '../runtime/shell/types.ts';
import {
  awkShellOnSocket,
  clusteredValues,
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
import { literal, type ShellView } from './shell-view.ts';

/** A command that itself fetches or decodes, or whose substitutions do (`echo "$(curl x)"`). */
function feedsForeignCode(command: ShellCommand, commands: readonly ShellCommand[]): boolean {
  return feedingCommands(commands).has(command);
}

// Each answer below is made once per line in one pass: a line's judgement asks them of every
// command, and asked stage by stage they cost the cube of a long pipe's length (2,000 stages took
// a minute, past an agent's hook timeout).
const feedingCache = new WeakMap<readonly ShellCommand[], ReadonlySet<ShellCommand>>();
const pipelineCache = new WeakMap<readonly ShellCommand[], ReadonlyMap<unknown, ShellCommand[]>>();

/** The commands of a line that fetch or decode, themselves or through a substitution of theirs. */
function feedingCommands(commands: readonly ShellCommand[]): ReadonlySet<ShellCommand> {
  const cached = feedingCache.get(commands);
  if (cached !== undefined) return cached;
  const feeding = new Set<ShellCommand>();
  for (const o of commands) {
    if (!producesForeignCode(o)) continue;
    feeding.add(o);
    const parent = o.parent === null || o.origin === 'payload' ? undefined : commands[o.parent];
    if (parent !== undefined) feeding.add(parent);
  }
  feedingCache.set(commands, feeding);
  return feeding;
}

/** Stages before this one in its pipeline. */
function earlierStages(command: ShellCommand, commands: readonly ShellCommand[]): ShellCommand[] {
  let pipelines = pipelineCache.get(commands);
  if (pipelines === undefined) {
    const grouped = new Map<unknown, ShellCommand[]>();
    for (const o of commands) {
      const group = grouped.get(o.pipeline.id);
      if (group === undefined) grouped.set(o.pipeline.id, [o]);
      else group.push(o);
    }
    pipelines = grouped;
    pipelineCache.set(commands, pipelines);
  }
  return (pipelines.get(command.pipeline.id) ?? []).filter(
    (o) => o.pipeline.stage < command.pipeline.stage,
  );
}

// One answer per view: every script run in a long line asks the same question.
const savedCache = new WeakMap<ShellView, Set<string>>();

/** Paths that hold foreign code once written: what a fetcher saves, or a later stage of its pipe (tee f, > f). */
function savedForeignCode(view: ShellView): Set<string> {
  const cached = savedCache.get(view);
  if (cached !== undefined) return cached;
  const commands = view.parsed.commands;
  const saved = new Set<string>();
  // Saved paths only grow: a command that reads one stays so, one that does not is asked again
  // once more are saved.
  const reads = new Map<ShellCommand, { readonly size: number; readonly value: boolean }>();
  const feeds = (o: ShellCommand): boolean => {
    if (feedsForeignCode(o, commands)) return true;
    const known = reads.get(o);
    if (known !== undefined && (known.value || known.size === saved.size)) return known.value;
    const value = readsSaved(o, view, saved);
    reads.set(o, { size: saved.size, value });
    return value;
  };
  // A saved file passed on is still foreign code: a copy, a move or a link under another name
  // (`mv x.txt x.sh`), or text that a reader of it writes (`cat x > y.sh`). Rounds reach a copy
  // of a copy.
  for (let round = 0; round < 3; round += 1) {
    const before = saved.size;
    for (const o of commands) {
      if (!(feeds(o) || earlierStages(o, commands).some(feeds))) continue;
      for (const w of writeTargets(o)) for (const p of view.paths(w)) saved.add(p);
      if (!COPIERS.has(o.binary ?? '')) continue;
      // Into a directory a copy keeps its name.
      const names = operands(o.args).flatMap((w) => view.paths(w).map((p) => basename(p)));
      for (const w of writeTargets(o))
        for (const p of view.paths(w)) for (const n of names) saved.add(`${p}/${n}`);
    }
    if (saved.size === before) break;
  }
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

// Programs that put a file under another name.
const COPIERS: ReadonlySet<string> = new Set(['cp', 'mv', 'install', 'ln', 'rsync']);

/** The last segment of a path. */
function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** A command that reads a saved file: names it as a word or an option's value, or takes it on stdin. */
function readsSaved(c: ShellCommand, view: ShellView, saved: ReadonlySet<string>): boolean {
  if (saved.size === 0) return false;
  const words = [
    ...c.args,
    ...c.wrappers.flatMap((w) => w.args),
    ...c.redirects.flatMap((r) => (!r.writes && r.target !== null ? [r.target] : [])),
  ];
  return words.some((w) =>
    [w, ...valueAfterEquals(w)].some((v) => view.paths(v).some((p) => isSaved(p, saved))),
  );
}

/** `--file=x` and `-fx` also name `x`. */
function valueAfterEquals(word: ShellWord): ShellWord[] {
  const m = /^(?:--[\w-]+=|-[A-Za-z])(.+)$/.exec(word.text);
  return m === null || !word.literal ? [] : [literal(m[1] as string)];
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

/**
 * A command whose name is known only at run time (`$line`, `eval "$l"`'s payload), in a read
 * loop of a line that holds a connection: it runs whatever words arrive (`nc h p | while read l;
 * do $l; done`).
 */
function runsWordsFromConnection(c: ShellCommand, commands: readonly ShellCommand[]): boolean {
  return (
    c.name !== null &&
    c.loop !== null &&
    commands.some((o) => opensConnection(o) || (o.binary !== null && CONNECTORS.test(o.binary)))
  );
}

/** A command that opens a socket for the line: a /dev/tcp redirect, zsh's ztcp. */
function opensConnection(c: ShellCommand): boolean {
  return usesNetworkDevice(c) || c.binary === 'ztcp';
}

/**
 * A remote shell: a shell or interpreter wired to a /dev/tcp socket (`bash -i >& /dev/tcp/h/p`),
 * nc -e / ncat --sh-exec, socat EXEC:, a shell reading a connection, a run-time command name
 * beside a connection, inline code that opens a socket and runs commands on it, or inline code
 * that fetches or decodes and evaluates.
 */
function runsRemoteCode(c: ShellCommand, commands: readonly ShellCommand[]): boolean {
  const b = c.binary;
  if (b === null) return runsWordsFromConnection(c, commands);
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
  const saved = savedForeignCode(view);
  if (saved.size === 0) return false;
  const script = scriptRun(c);
  if (script !== null && view.paths(script).some((p) => isSaved(p, saved))) return true;
  return runsSavedOtherwise(c, view, saved);
}

// Programs that run a file named by an option as their program: make -f, awk -f, sed -f.
const PROGRAM_FILE_OPTIONS: ReadonlyMap<string, readonly [string, readonly string[]]> = new Map([
  ['make', ['f', ['--file', '--makefile']]],
  ['gmake', ['f', ['--file', '--makefile']]],
  ['awk', ['f', ['--file']]],
  ['gawk', ['f', ['--file']]],
  ['mawk', ['f', []]],
  ['sed', ['f', ['--file']]],
]);

/**
 * A saved download run some other way than as a script operand: on a code runner's stdin
 * (`bash < x.sh`, `cat x.sh | bash`, `xargs -a x.sh sh -c`), as a substitution a code runner runs
 * (`eval "$(cat x)"`), as the program file of make, awk or sed (`make -f x.mk`), or loaded by inline
 * code (`require('./x.js')`, `import x`, `exec(open('x').read())`).
 */
function runsSavedOtherwise(c: ShellCommand, view: ShellView, saved: ReadonlySet<string>): boolean {
  const commands = view.parsed.commands;
  const index = commands.indexOf(c);
  if (runsStdin(c) || (c.binary !== null && runsCode(c.binary) && c.wrappers.length > 0)) {
    if (readsSaved({ ...c, args: [] }, view, saved)) return true;
    if (earlierStages(c, commands).some((o) => readsSaved(o, view, saved))) return true;
  }
  const substituted = commands.some(
    (o) =>
      o.parent === index &&
      (o.origin === 'substitution' || o.origin === 'process-substitution') &&
      runsSubstitution(c, o.origin) &&
      readsSaved(o, view, saved),
  );
  if (substituted) return true;
  const option = PROGRAM_FILE_OPTIONS.get(c.binary ?? '');
  if (option !== undefined) {
    const files = clusteredValues(c.args, option[0], option[1]);
    if (files.some((w) => view.paths(w).some((p) => isSaved(p, saved)))) return true;
  }
  const code = inlineCode(c);
  return code !== null && [...saved].some((p) => loadsFile(code, basename(p.replace(/\/$/, ''))));
}

/** Inline code that loads or runs the file `name` (or the module it is, for `import x`). */
function loadsFile(code: string, name: string): boolean {
  if (name === '') return false;
  const quoted = escapeRegExp(name);
  const stem = escapeRegExp(name.replace(/\.[^.]+$/, ''));
  return new RegExp(
    `(?:require|require_relative|import|include|execfile|run_path|source|do|load)\\s*\\(?\\s*['"](?:\\.{1,2}/)*${quoted}['"]|` +
      `\\b(?:import|from)\\s+${stem}\\b|\\b(?:exec|eval|compile)\\s*\\(\\s*(?:open|readFileSync|File\\.read|fs\\.readFileSync)\\s*\\(\\s*['"](?:\\.{1,2}/)*${quoted}['"]`,
  ).test(code);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
