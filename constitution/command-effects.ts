// What a command does to files and code, read off its parsed words: what it deletes, writes,
// uploads, and whether it runs text as code. Pure functions over the parser's types; the
// dangerous-shell rules and the parser's unwrapping share these facts about programs.
import type { ShellCommand, ShellWord } from '../runtime/shell/types.ts';
import { isInterpreter, SHELLS } from './programs.ts';

export { isInterpreter, SHELLS } from './programs.ts';

// The flags that take inline code: python -c, perl/ruby/node -e (-E), node --eval, php -r.
const CODE_FLAGS: ReadonlySet<string> = new Set(['-c', '-e', '-E', '--eval', '-r']);
// Short flags bundled before the code flag (`perl -lne`, `ruby -ne`, `node -pe`, `python3 -Ic`).
const BUNDLED_CODE_FLAG = /^-[A-Za-z]+[ceE]$/;

/** Where the inline code's flag is among the arguments; -1 when there is none. */
function codeFlagAt(args: readonly ShellWord[]): number {
  return args.findIndex(
    (a) => a.literal && (CODE_FLAGS.has(a.text) || BUNDLED_CODE_FLAG.test(a.text)),
  );
}

/** The code an interpreter runs inline (-c/-e/-r) or from a here-document; null for neither. */
export function inlineCode(command: ShellCommand): string | null {
  if (command.binary === null || !isInterpreter(command.binary)) return null;
  const at = codeFlagAt(command.args);
  const word = at >= 0 ? command.args[at + 1] : undefined;
  return word?.text ?? command.stdinText;
}

/** The words an interpreter hands its inline code as arguments: those after the code word. */
export function argumentsOf(command: ShellCommand): readonly ShellWord[] {
  if (command.binary === null || !isInterpreter(command.binary)) return [];
  const at = codeFlagAt(command.args);
  if (at >= 0) return command.args.slice(at + 2);
  // Code from stdin (`python3 - a b <<EOF`): the words after `-`.
  const dash = command.args.findIndex((a) => a.literal && a.text === '-');
  return command.stdinText === null || dash < 0 ? [] : command.args.slice(dash + 1);
}

/** Programs whose output comes from the network. */
export const DOWNLOADERS: ReadonlySet<string> = new Set([
  'curl',
  'wget',
  'fetch',
  'aria2c',
  'http',
  'https',
  'nc',
  'ncat',
  'socat',
]);
// A piece of an option word known only at run time (an unset variable, a substitution).
const MAYBE = '\0';
const MAX_READINGS = 16;
const NO_VARIABLES: ReadonlyMap<string, readonly string[]> = new Map();

/**
 * What a word may read as: literal text as it is; otherwise each piece filled in where the text
 * tells (`$"-rf"` is its string, `$(echo -rf)` is -rf, `$X` the values set earlier in the line),
 * a piece known only at run time as MAYBE.
 */
function readings(word: ShellWord, variables: ReadonlyMap<string, readonly string[]>): string[] {
  if (word.literal) return [word.text];
  let texts = [''];
  for (const part of word.parts) {
    const pieces =
      part.kind === 'text'
        ? [part.text]
        : part.kind === 'var'
          ? (variables.get(part.name) ?? [MAYBE])
          : [part.output ?? MAYBE];
    texts = texts.flatMap((t) => pieces.map((p) => t + p)).slice(0, MAX_READINGS);
  }
  return texts;
}

/** True when an option word's text gives one of `letters` (`-rf`) or `long` (`--recursive=x`). */
function namesFlag(text: string, letters: string, long: readonly string[]): boolean {
  if (text.startsWith('--')) return long.includes(text.split('=')[0] as string);
  return text.startsWith('-') && [...text.slice(1)].some((c) => letters.includes(c));
}

/**
 * The option words before `--` name one of the flags: `-rf` gives r and f, `--recursive` stays
 * whole. A word is read as bash passes it where its text tells (`-$"R"f`, `$(echo -rf)`); a
 * word with a piece known only at run time is left out.
 */
export function hasFlag(
  args: readonly ShellWord[],
  letters: string,
  long: readonly string[],
): boolean {
  for (const arg of args) {
    const texts = readings(arg, NO_VARIABLES);
    if (texts.length !== 1 || texts[0]?.includes(MAYBE) !== false) continue;
    const text = texts[0];
    if (text === '--') return false;
    if (namesFlag(text, letters, long)) return true;
  }
  return false;
}

/**
 * Like hasFlag, for a rule that denies: a word that may turn into the flag at run time (`-$X`,
 * `$(opts)`, `--$X`) counts as having it, and variables set earlier in the line (`X=-rf; rm $X
 * /`) are filled in.
 */
export function mayHaveFlag(
  args: readonly ShellWord[],
  letters: string,
  long: readonly string[],
  variables: ReadonlyMap<string, readonly string[]>,
): boolean {
  for (const arg of args) {
    if (arg.literal && arg.text === '--') return false;
    for (const text of readings(arg, variables)) {
      if (!text.includes(MAYBE)) {
        if (namesFlag(text, letters, long)) return true;
      } else if (text.startsWith(MAYBE) || text.startsWith('-')) return true;
    }
  }
  return false;
}

/** Non-option words (everything after `--` counts). */
export function operands(args: readonly ShellWord[]): ShellWord[] {
  const out: ShellWord[] = [];
  let ended = false;
  for (const arg of args) {
    if (!ended && arg.literal && arg.text === '--') ended = true;
    else if (ended || !(arg.literal && arg.text.startsWith('-') && arg.text.length > 1))
      out.push(arg);
  }
  return out;
}

/** The value of `-o X`, `-oX`, `--output X` or `--output=X`. */
export function optionValues(
  args: readonly ShellWord[],
  short: readonly string[],
  long: readonly string[],
): ShellWord[] {
  const out: ShellWord[] = [];
  args.forEach((arg, i) => {
    const t = arg.text;
    const next = args[i + 1];
    if ((short.includes(t) || long.includes(t)) && next) out.push(next);
    else if (long.some((l) => t.startsWith(`${l}=`)))
      out.push(textWord(t.slice(t.indexOf('=') + 1), arg));
    else if (short.some((s) => t.startsWith(s) && t.length > s.length && !t.startsWith('--')))
      out.push(textWord(t.slice(2), arg));
  });
  return out;
}

const HERE: ShellWord = {
  text: '.',
  literal: true,
  glob: false,
  parts: [{ kind: 'text', text: '.' }],
};

function textWord(text: string, from: ShellWord): ShellWord {
  return from.literal
    ? { text, literal: true, glob: false, parts: [{ kind: 'text', text }] }
    : from;
}

/** Programs that delete or empty the files they are given (truncate -s 0 empties as surely as rm). */
export const DELETERS: ReadonlySet<string> = new Set([
  'rm',
  'unlink',
  'rmdir',
  'shred',
  'truncate',
  'srm',
  'wipe',
]);
// find's actions that run a program on every match.
const FIND_EXEC = /^-(?:exec|execdir|ok|okdir)$/;
// A deleting word inside a shell payload that find hands each match to (-exec sh -c 'rm "$1"').
const DELETING_WORD = /(?:^|[\s;&|(`/])(?:rm|unlink|shred|truncate|rmdir|srm|wipe)\s/;

/** find's -exec X: X deletes (rm, /bin/rm, shred...) or is a shell whose payload does. */
function findExecDeletes(args: readonly ShellWord[], at: number): boolean {
  const program = args[at + 1]?.text ?? '';
  const name = program.slice(program.lastIndexOf('/') + 1);
  if (DELETERS.has(name)) return true;
  if (!SHELLS.has(name)) return false;
  const rest = args.slice(at + 2).map((a) => a.text);
  const end = rest.findIndex((t) => t === ';' || t === '+');
  return DELETING_WORD.test(`${(end < 0 ? rest : rest.slice(0, end)).join(' ')} `);
}

/** The start points of a find (the words before its first test or action). */
export function findStarts(command: ShellCommand): ShellWord[] {
  const start: ShellWord[] = [];
  for (const arg of command.args) {
    if (arg.literal && /^[-(!]/.test(arg.text)) break;
    start.push(arg);
  }
  return start;
}

/** Files a command deletes. */
export function deleteTargets(command: ShellCommand): ShellWord[] {
  const b = command.binary;
  if (b !== null && DELETERS.has(b)) return operands(command.args);
  const deletes = command.args.some(
    (a, i) => a.text === '-delete' || (FIND_EXEC.test(a.text) && findExecDeletes(command.args, i)),
  );
  return b === 'find' && deletes ? findStarts(command) : [];
}

/** The file names downloads of these URL words are saved under (their last path segment). */
function urlNames(words: readonly ShellWord[]): ShellWord[] {
  return words.flatMap((word) => {
    const match = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*\/(?:[^?#]*\/)?([^/?#]+)/i.exec(word.text);
    return match === null ? [] : [textWord(match[1] as string, word)];
  });
}

/**
 * The values of an option however getopt may read it: `--long V`, `--long=V`, `-X V`, `-XV`,
 * and inside a cluster of short flags (`-qO V`, `-fsSLoV`: the letter takes the rest of the
 * word, else the next word). A letter that only looks like one inside another option's value
 * counts too: a rule that refuses reads more, never less.
 */
export function clusteredValues(
  args: readonly ShellWord[],
  letter: string,
  long: readonly string[],
): ShellWord[] {
  const out: ShellWord[] = [];
  for (const [i, arg] of args.entries()) {
    const t = arg.text;
    const next = args[i + 1];
    if (t === '--') break;
    if (long.includes(t) && next !== undefined) out.push(next);
    else if (long.some((l) => t.startsWith(`${l}=`)))
      out.push(textWord(t.slice(t.indexOf('=') + 1), arg));
    else if (/^-[^-]/.test(t) && t.indexOf(letter) > 0) {
      const rest = t.slice(t.indexOf(letter) + 1);
      if (rest !== '') out.push(textWord(rest, arg));
      else if (next !== undefined) out.push(next);
    }
  }
  return out;
}

/** `name` inside the directory `dir` as a word (a made-up literal when both are literal). */
function joined(dir: ShellWord, name: ShellWord): ShellWord {
  if (!dir.literal || !name.literal || name.text.startsWith('/')) return name;
  return textWord(`${dir.text.replace(/\/+$/, '')}/${name.text}`, dir);
}

/**
 * The files curl or wget saves (and the directories it saves them in): `-o`/`-O FILE` in any
 * spelling, the URL's last segment (`curl -O`, wget without -O), each joined to `--output-dir`
 * or `-P DIR` as the program joins them. Not `-` (the output).
 */
function downloadTargets(
  binary: 'wget' | 'curl',
  args: readonly ShellWord[],
  ops: readonly ShellWord[],
): ShellWord[] {
  const wget = binary === 'wget';
  const named = (
    wget
      ? clusteredValues(args, 'O', ['--output-document'])
      : clusteredValues(args, 'o', ['--output'])
  ).filter((w) => w.text !== '-');
  const dirs = wget
    ? clusteredValues(args, 'P', ['--directory-prefix'])
    : optionValues(args, [], ['--output-dir']);
  // wget without -O, and curl -O, save under the URL's last segment.
  const remote = wget
    ? named.length === 0
    : hasFlag(args, 'O', ['--remote-name', '--remote-name-all']);
  const files = [...named, ...(remote ? urlNames(ops) : [])];
  // wget -O is not joined to -P; curl joins -o and -O names to --output-dir.
  const inDirs = dirs.flatMap((dir) =>
    (wget ? (remote ? urlNames(ops) : []) : files).map((f) => joined(dir, f)),
  );
  return [...files, ...dirs, ...inDirs];
}

/** Files a command creates or changes: redirects, tee, cp/mv/install/ln targets, dd of=, downloads. */
export function writeTargets(command: ShellCommand): ShellWord[] {
  const out = command.redirects.flatMap((r) => (r.writes && r.target !== null ? [r.target] : []));
  const args = command.args;
  const ops = operands(args);
  switch (command.binary) {
    case 'tee':
    case 'touch':
    case 'truncate':
    case 'mkdir':
      return [...out, ...ops];
    case 'cp':
    case 'mv':
    case 'install':
    case 'ln':
    case 'rsync': {
      // With -t DIR every operand is a source; without it the last one is the destination.
      const into =
        command.binary === 'rsync' ? [] : optionValues(args, ['-t'], ['--target-directory']);
      return [...out, ...into, ...(into.length === 0 && ops.length >= 2 ? ops.slice(-1) : [])];
    }
    case 'dd':
      return [
        ...out,
        ...args.filter((a) => a.text.startsWith('of=')).map((a) => textWord(a.text.slice(3), a)),
      ];
    case 'wget':
    case 'curl':
      return [...out, ...downloadTargets(command.binary, args, ops)];
    case 'tar':
    case 'bsdtar':
      return [...out, ...tarWrites(args)];
    case 'unzip':
      // Extraction into a directory writes under it (unzip -d /usr).
      return [...out, ...optionValues(args, ['-d'], [])];
    case 'sed':
    case 'perl':
      return hasFlag(args, 'i', ['--in-place']) ? [...out, ...ops.slice(1)] : out;
    default:
      return out;
  }
}

/**
 * What tar writes: the archive (`-f`, `czf a.tgz`, `--file=`) when it creates or adds to one, and
 * the `-C` directory when it extracts (tar -xf a -C /) or its mode is unclear. When creating,
 * listing or comparing, -C is where members are read (`tar -czf x.tgz -C / etc` reads /etc).
 */
function tarWrites(args: readonly ShellWord[]): ShellWord[] {
  const first = args[0];
  // Old style: the first word is the letters without a dash (tar czf a.tgz dir).
  const bundle = first?.literal === true && !first.text.startsWith('-') ? first.text : '';
  const creates =
    /[cruA]/.test(bundle) ||
    hasFlag(args, 'cruA', ['--create', '--append', '--update', '--catenate', '--concatenate']);
  const onlyReads = /[td]/.test(bundle) || hasFlag(args, 'td', ['--list', '--diff', '--compare']);
  if (!creates) return onlyReads ? [] : optionValues(args, ['-C'], ['--directory']);
  const archives = optionValues(args, [], ['--file']);
  args.forEach((arg, i) => {
    const next = args[i + 1];
    const cluster = i === 0 ? /^-?[a-zA-Z]*f$/ : /^-[a-zA-Z]*f$/;
    if (arg.literal && cluster.test(arg.text) && next !== undefined) archives.push(next);
  });
  return archives.filter((w) => w.text !== '-');
}

/**
 * Where an archive tool unpacks: the -C/-d/-o directory, else where it runs ('.'); null when the
 * command unpacks nothing (tar without x, anything that is not an archive tool).
 */
export function unpackDirs(command: ShellCommand): ShellWord[] | null {
  const args = command.args;
  const here = (dirs: ShellWord[]): ShellWord[] => (dirs.length > 0 ? dirs : [textWord('.', HERE)]);
  switch (command.binary) {
    case 'tar':
    case 'bsdtar': {
      const first = args[0];
      const bundle = first?.literal === true && !first.text.startsWith('-') ? first.text : '';
      const extracts = bundle.includes('x') || hasFlag(args, 'x', ['--extract', '--get']);
      return extracts ? here(optionValues(args, ['-C'], ['--directory'])) : null;
    }
    case 'unzip':
      return here(optionValues(args, ['-d'], []));
    case '7z':
    case '7za':
      return operands(args)[0]?.text === 'x' ? here(optionValues(args, ['-o'], [])) : null;
    default:
      return null;
  }
}

// Names a program can be given to read its script from stdin.
const STDIN_NAMES: ReadonlySet<string> = new Set([
  '-',
  '/dev/stdin',
  '/dev/fd/0',
  '/proc/self/fd/0',
]);
// awk programs that hand text to a shell: system(...), print | "cmd", "cmd" | getline, |&.
const AWK_RUNS_COMMANDS = /\bsystem\s*\(|\|\s*["$a-zA-Z_]|\|&/;
const AWKS: ReadonlySet<string> = new Set(['awk', 'gawk', 'mawk', 'nawk', 'busybox-awk']);
// gawk's network files: a program that opens one talks to that host.
const AWK_SOCKET = /\/inet[46]?\/(?:tcp|udp)\//;

/** The program an awk command runs from its words (`awk 'BEGIN{…}'`), or null for other commands and `-f FILE`. */
export function awkProgram(command: ShellCommand): string | null {
  if (command.binary === null || !AWKS.has(command.binary)) return null;
  if (command.args.some((a) => /^(?:-f|--file)/.test(a.text))) return null;
  return operands(command.args)[0]?.text ?? null;
}

/** An awk program that opens a network connection and runs commands (gawk's /inet/tcp). */
export function awkShellOnSocket(command: ShellCommand): boolean {
  if (command.binary === null || !AWKS.has(command.binary)) return false;
  const program = operands(command.args)[0]?.text ?? '';
  if (!AWK_SOCKET.test(program)) return false;
  // Talking to the socket itself (`print x |& s`, `s |& getline`) runs nothing; drop those uses.
  const sockets = [...program.matchAll(/(\w+)\s*=\s*"\/inet/g)].map((m) => m[1] as string);
  const rest = sockets.reduce(
    (text, name) => text.replace(new RegExp(`\\|&\\s*${name}\\b|\\b${name}\\s*\\|&`, 'g'), ''),
    program,
  );
  return AWK_RUNS_COMMANDS.test(rest);
}

// sed's `e` command and the `e` flag of `s///` run a line as a shell command.
const SED_RUNS =
  /(?:^|[;{}\n])\s*(?:[0-9$,]+|\/[^/]*\/)?\s*e(?:\s|;|$)|\bs([^\w\s\\]).*?\1.*?\1[gpiIMmw0-9]*e/;
// Programs that run what they read as commands: the job schedulers (`at`, `batch`, `crontab -`
// installs it to run later), line editors (`!cmd`), m4 (syscmd), a makefile or gdb script read
// from stdin.
const COMMAND_READERS: ReadonlySet<string> = new Set(['at', 'batch', 'ed', 'ex']);
const EDITORS: ReadonlySet<string> = new Set(['vi', 'vim', 'nvim', 'view']);

function runsInputAsCommands(b: string, command: ShellCommand): boolean {
  const args = command.args;
  const first = operands(args)[0];
  // Their operands are a time or the file edited: the commands still come from stdin.
  if (COMMAND_READERS.has(b)) return !hasFlag(args, 'f', ['--file']);
  if (b === 'm4') return first === undefined || STDIN_NAMES.has(first.text);
  if (b === 'crontab')
    return !hasFlag(args, 'lre', []) && (first === undefined || STDIN_NAMES.has(first.text));
  if (EDITORS.has(b)) return hasFlag(args, 'es', []) || first?.text === '-';
  if (b === 'sed') return args.some((a) => SED_RUNS.test(a.text));
  if (b === 'make' || b === 'gmake' || b === 'gdb')
    return (
      args.some(
        (a, i) =>
          STDIN_NAMES.has(a.text) && /^-[fx]$|^--(?:file|command)$/.test(args[i - 1]?.text ?? ''),
      ) || args.some((a) => /^--(?:file|command|makefile)=(?:-|\/dev\/stdin)$/.test(a.text))
    );
  return false;
}

/** Programs that run text as code: shells, interpreters, eval and source. */
export function runsCode(binary: string): boolean {
  return SHELLS.has(binary) || isInterpreter(binary) || ['eval', 'source', '.'].includes(binary);
}

// Inline code that reads its input (perl's <> and -n/-p loops, sys.stdin, readFileSync(0) …)
// and code that evaluates or runs a string: together, the input is run as code.
const INLINE_READS_INPUT =
  /<>|<STDIN>|\bSTDIN\b|\$stdin\b|\bARGF\b|\bgets\b|\bsys\.stdin\b|\b(?:raw_)?input\s*\(|\bfileinput\b|process\.stdin|readFileSync\s*\(\s*(?:0|['"]\/dev\/stdin['"])|php:\/\/stdin|\/dev\/stdin|\bio\.(?:read|lines|stdin)\b|os\.Stdin|Deno\.stdin|\*in\*/;
const INLINE_RUNS_TEXT =
  /\b(?:eval|exec\w*|system|popen\w*|spawn\w*|subprocess|compile|Function|instance_eval|qx|passthru|shell_exec|proc_open|child_process|loadstring|dofile|load-string)\b|%x[({[]/;
// perl and ruby run their -e code once per input line with -n or -p ($_ holds the line).
const LINE_LOOP = /^-[A-Za-z]*[np][A-Za-z]*$/;

/** Inline code (`perl -e 'system(join "",<>)'`, `python3 -c "exec(sys.stdin.read())"`) that runs what it reads. */
function inlineRunsItsInput(command: ShellCommand): boolean {
  const at = codeFlagAt(command.args);
  const code = at >= 0 ? command.args[at + 1]?.text : undefined;
  if (code === undefined || !INLINE_RUNS_TEXT.test(code)) return false;
  const loops =
    /^(?:perl|ruby)[\d.]*$/.test(command.binary ?? '') &&
    command.args.slice(0, at + 1).some((a) => a.literal && LINE_LOOP.test(a.text));
  return loops || INLINE_READS_INPUT.test(code);
}

/**
 * A stage that runs its stdin as code: `sh`, `bash -s`, `python3 -`, `bash /dev/stdin`,
 * `source /dev/stdin`, inline code that evaluates what it reads, an awk program that calls
 * system(), or `xargs sh -c` (each input line becomes a shell's code or arguments).
 */
export function runsStdin(command: ShellCommand): boolean {
  const b = command.binary;
  // A command named by a variable or a substitution (`| $SHELL`) may be any shell.
  if (b === null) return command.name !== null;
  if (runsInputAsCommands(b, command)) return true;
  if (command.wrappers.some((w) => w.name === 'xargs')) return runsCode(b);
  const first = operands(command.args)[0];
  const fromStdin = first !== undefined && STDIN_NAMES.has(first.text);
  if (SHELLS.has(b)) {
    if (hasFlag(command.args, 'c', [])) return false;
    return first === undefined || fromStdin || hasFlag(command.args, 's', []);
  }
  if (isInterpreter(b)) {
    if (inlineRunsItsInput(command)) return true;
    return !hasFlag(command.args, 'ce', ['--eval']) && (first === undefined || fromStdin);
  }
  if (b === 'source' || b === '.') return fromStdin;
  if (AWKS.has(b)) return first !== undefined && AWK_RUNS_COMMANDS.test(first.text);
  return false;
}

/** A command whose output is fetched from the network or decoded from an opaque encoding. */
export function producesForeignCode(command: ShellCommand): boolean {
  const b = command.binary;
  if (b === null) return false;
  if (DOWNLOADERS.has(b)) return true;
  if (b === 'base64' || b === 'base32' || b === 'basenc')
    return hasFlag(command.args, 'dD', ['--decode']);
  if (b === 'xxd') return hasFlag(command.args, 'r', ['--revert']);
  if (b === 'openssl')
    return command.args.some((a) => a.text === '-d' || a.text === '-base64' || a.text === 'base64');
  if (b === 'gpg' || b === 'gpg2') return hasFlag(command.args, 'd', ['--decrypt']);
  return b === 'uudecode';
}

/** A program run from a file: `bash f`, `python3 f`, `. f`, `source f`, or `./f` itself. */
export function scriptRun(command: ShellCommand): ShellWord | null {
  const b = command.binary;
  if (b === null) return null;
  if (SHELLS.has(b) || isInterpreter(b) || b === 'source' || b === '.') {
    if (hasFlag(command.args, 'ce', ['--eval'])) return null;
    return operands(command.args).find((w) => w.text !== '-') ?? null;
  }
  return command.name !== null && command.name.text.includes('/') ? command.name : null;
}

/** Parent of a substitution that runs the substituted text as code. */
export function runsSubstitution(parent: ShellCommand, origin: ShellCommand['origin']): boolean {
  const b = parent.binary;
  if (b === null) return false;
  if (b === 'eval' || b === 'source' || b === '.' || SHELLS.has(b)) return true;
  if (!isInterpreter(b)) return false;
  return origin === 'process-substitution' || hasFlag(parent.args, 'ce', ['--eval']);
}
