// What a command does to files and code, read off its parsed words: what it deletes, writes,
// uploads, and whether it runs text as code. Pure functions over the parser's types; the
// dangerous-shell rules and the parser's unwrapping share these facts about programs.
import type { ShellCommand, ShellWord } from '../runtime/shell/types.ts';

/** Shells: their -c argument, stdin or script is more shell. */
export const SHELLS: ReadonlySet<string> = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'ash',
  'mksh',
  'yash',
  'fish',
]);
/** Interpreters that run code from -c/-e, a file, or stdin. */
const INTERPRETERS: ReadonlySet<string> = new Set([
  'python',
  'python2',
  'python3',
  'perl',
  'ruby',
  'node',
  'nodejs',
  'php',
  'lua',
  'deno',
  'bun',
]);
/** An interpreter, versioned names included (python3.12, perl5.36). */
export function isInterpreter(binary: string): boolean {
  return INTERPRETERS.has(binary) || /^(?:python|perl|ruby|php|lua|node)[\d.]+$/.test(binary);
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
/** Literal option words before `--`: `-rf` gives r and f, `--recursive` stays whole. */
export function hasFlag(
  args: readonly ShellWord[],
  letters: string,
  long: readonly string[],
): boolean {
  for (const arg of args) {
    if (!arg.literal) continue;
    const t = arg.text;
    if (t === '--') return false;
    if (t.startsWith('--')) {
      if (long.includes(t.split('=')[0] as string)) return true;
    } else if (t.startsWith('-') && [...t.slice(1)].some((c) => letters.includes(c))) return true;
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

function textWord(text: string, from: ShellWord): ShellWord {
  return from.literal
    ? { text, literal: true, glob: false, parts: [{ kind: 'text', text }] }
    : from;
}

/** Files a command deletes. */
export function deleteTargets(command: ShellCommand): ShellWord[] {
  const b = command.binary;
  if (b === 'rm' || b === 'unlink' || b === 'rmdir' || b === 'shred') return operands(command.args);
  // truncate -s 0 empties a file as surely as rm removes it.
  if (b === 'truncate') return operands(command.args);
  const deletes = command.args.some(
    (a, i) =>
      a.text === '-delete' ||
      ((a.text === '-exec' || a.text === '-execdir') &&
        /^(?:.*\/)?(?:rm|shred|unlink)$/.test(command.args[i + 1]?.text ?? '')),
  );
  if (b === 'find' && deletes) {
    const start: ShellWord[] = [];
    for (const arg of command.args) {
      if (arg.literal && /^[-(!]/.test(arg.text)) break;
      start.push(arg);
    }
    return start;
  }
  return [];
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
    case 'rsync':
      return [
        ...out,
        ...optionValues(args, ['-t'], ['--target-directory']),
        ...(ops.length >= 2 ? ops.slice(-1) : []),
      ];
    case 'dd':
      return [
        ...out,
        ...args.filter((a) => a.text.startsWith('of=')).map((a) => textWord(a.text.slice(3), a)),
      ];
    case 'wget':
      return [
        ...out,
        ...optionValues(args, ['-O', '-P'], ['--output-document', '--directory-prefix']).filter(
          (w) => w.text !== '-',
        ),
      ];
    case 'curl':
      return [...out, ...optionValues(args, ['-o'], ['--output', '--output-dir'])];
    case 'tar':
    case 'unzip':
      // Extraction into a directory writes under it (tar -C /, unzip -d /usr).
      return [...out, ...optionValues(args, ['-C', '-d'], ['--directory'])];
    case 'sed':
    case 'perl':
      return hasFlag(args, 'i', ['--in-place']) ? [...out, ...ops.slice(1)] : out;
    default:
      return out;
  }
}

/** A stage that runs its stdin as code: `sh`, `bash -s`, `python3 -`, `perl` with no script. */
export function runsStdin(command: ShellCommand): boolean {
  const b = command.binary;
  if (b === null) return false;
  if (SHELLS.has(b)) {
    const script = operands(command.args).filter((w) => w.text !== '-');
    return (
      !hasFlag(command.args, 'c', []) && (script.length === 0 || hasFlag(command.args, 's', []))
    );
  }
  if (isInterpreter(b)) {
    const first = operands(command.args)[0];
    return !hasFlag(command.args, 'ce', ['--eval']) && (first === undefined || first.text === '-');
  }
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

/** Words naming local files a command sends over the network: curl -d @f, -F x=@f, -T f, wget --post-file=f. */
export function uploadWords(
  command: ShellCommand,
): { readonly word: ShellWord; readonly atFile: boolean }[] {
  const args = command.args;
  if (command.binary === 'curl') {
    const data = optionValues(
      args,
      ['-d', '-F'],
      ['--data', '--data-binary', '--data-ascii', '--data-urlencode', '--json', '--form'],
    );
    const files = optionValues(args, ['-T'], ['--upload-file']);
    return [
      ...data.map((word) => ({ word, atFile: true })),
      ...files.map((word) => ({ word, atFile: false })),
    ];
  }
  if (command.binary === 'wget') {
    return optionValues(args, [], ['--post-file', '--body-file']).map((word) => ({
      word,
      atFile: false,
    }));
  }
  return [];
}
