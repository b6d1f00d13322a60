// Peel off the commands that only run another command (sudo, env, timeout, xargs ...), so the
// guard judges `rm` in `sudo -u x timeout 5 rm -rf /`, and find the text that shells and eval
// will run (bash -c '...', eval ..., env -S '...').
import { SHELLS } from '../../constitution/command-effects.ts';
import type { ShellWord, ShellWrapper } from './types.ts';

interface WrapperSpec {
  /** Short flags that take a value (attached `-n10` or as the next word). */
  readonly shortArgs: string;
  /** Long flags that take a value when not written as --flag=value. */
  readonly longArgs: readonly string[];
  /** Plain words between the options and the command (timeout's duration, chroot's root). */
  readonly positionals: number;
  /** Flags after which no command follows (`command -v x` looks x up, `ionice -p` names a pid). */
  readonly noCommand: readonly string[];
  /** NAME=value words are environment settings, not the command (env). */
  readonly assignments: boolean;
}

function spec(partial: Partial<WrapperSpec>): WrapperSpec {
  return {
    shortArgs: '',
    longArgs: [],
    positionals: 0,
    noCommand: [],
    assignments: false,
    ...partial,
  };
}

const WRAPPERS: ReadonlyMap<string, WrapperSpec> = new Map([
  [
    'sudo',
    spec({
      shortArgs: 'ugCDhprtUTR',
      longArgs: [
        '--user',
        '--group',
        '--close-from',
        '--chdir',
        '--prompt',
        '--role',
        '--type',
        '--other-user',
        '--command-timeout',
        '--host',
        '--chroot',
      ],
      noCommand: [
        '-l',
        '--list',
        '-v',
        '--validate',
        '-k',
        '-K',
        '-e',
        '--edit',
        '-V',
        '--version',
      ],
    }),
  ],
  ['doas', spec({ shortArgs: 'uC' })],
  [
    'env',
    spec({
      shortArgs: 'uCS',
      longArgs: ['--unset', '--chdir', '--split-string'],
      assignments: true,
    }),
  ],
  ['nohup', spec({})],
  ['nice', spec({ shortArgs: 'n', longArgs: ['--adjustment'] })],
  ['timeout', spec({ shortArgs: 'sk', longArgs: ['--signal', '--kill-after'], positionals: 1 })],
  [
    'xargs',
    spec({
      shortArgs: 'adEILnPs',
      longArgs: [
        '--arg-file',
        '--delimiter',
        '--eof',
        '--replace',
        '--max-lines',
        '--max-args',
        '--max-procs',
        '--max-chars',
        '--process-slot-var',
      ],
    }),
  ],
  ['busybox', spec({ noCommand: ['--list', '--help'] })],
  ['command', spec({ noCommand: ['-v', '-V'] })],
  ['builtin', spec({})],
  ['exec', spec({ shortArgs: 'a' })],
  ['stdbuf', spec({ shortArgs: 'ioe', longArgs: ['--input', '--output', '--error'] })],
  [
    'ionice',
    spec({
      shortArgs: 'cn',
      longArgs: ['--class', '--classdata'],
      noCommand: ['-p', '-P', '-u', '--pid', '--pgid', '--uid'],
    }),
  ],
  ['setsid', spec({})],
  ['chroot', spec({ longArgs: ['--userspec', '--groups'], positionals: 1 })],
  ['time', spec({ shortArgs: 'fo', longArgs: ['--format', '--output'] })],
  // watch hands its words to sh -c; the others only change how the command is run or routed.
  ['watch', spec({ shortArgs: 'nq', longArgs: ['--interval', '--equexit'] })],
  ['unbuffer', spec({})],
  ['torsocks', spec({})],
  ['proxychains', spec({ shortArgs: 'f' })],
  ['proxychains4', spec({ shortArgs: 'f' })],
  ['caffeinate', spec({ shortArgs: 'tw' })],
  // Schedulers and namespace tools that run the command after their options (flock's lock
  // file, taskset's mask and chrt's priority come first; flock -c is shell text, below).
  [
    'flock',
    spec({
      shortArgs: 'wEc',
      longArgs: ['--timeout', '--conflict-exit-code', '--command'],
      positionals: 1,
    }),
  ],
  ['unshare', spec({ shortArgs: 'SGRw', longArgs: ['--setuid', '--setgid', '--root', '--wd'] })],
  ['taskset', spec({ positionals: 1, noCommand: ['-p', '--pid'] })],
  ['chrt', spec({ positionals: 1, noCommand: ['-p', '--pid'] })],
  ['coproc', spec({})],
]);

/**
 * The basename of the command word as bash reads it (`/usr/bin/rm` -> `rm`, `$"rm"` -> `rm`); null
 * when a piece of it is known only at run time. A word that is not literal names a binary but
 * never matches an allowing rule (they want a literal name).
 */
export function binaryOf(word: ShellWord | undefined): string | null {
  const text = word === undefined ? null : staticText(word);
  if (text === null) return null;
  const slash = text.lastIndexOf('/');
  return slash >= 0 ? text.slice(slash + 1) : text;
}

interface Peeled {
  readonly words: readonly ShellWord[];
  readonly wrappers: readonly ShellWrapper[];
  /** Text that `env -S` splits and runs. */
  readonly payload: string | null;
  /**
   * The other commands the words may run: after a wrapper's word known only at run time
   * (`timeout "$OPTS" 5 rm -rf /`, OPTS="-s KILL"), it may expand to an option with its value or
   * to none, so every later word may be the command. Each is peeled in turn.
   */
  readonly alternates: readonly AlternateReading[];
}

/** Another command a wrapped line may run, with the wrappers before it. */
export interface AlternateReading {
  readonly words: readonly ShellWord[];
  readonly wrappers: readonly ShellWrapper[];
}

/** Skip one wrapper's options; returns the index of its command word, or -1 when it runs none. */
function commandIndex(
  words: readonly ShellWord[],
  wrapper: WrapperSpec,
): { index: number; split: string | null; runTimeAt: number } {
  let i = 1;
  let positionals = wrapper.positionals;
  let split: string | null = null;
  let runTimeAt = -1;
  while (i < words.length) {
    const word = words[i] as ShellWord;
    if (!word.literal) {
      // Read as the command, and it may expand to options too: the later words are read as the
      // command as well (peelWrappers' alternates).
      if (positionals === 0) return { index: i, split, runTimeAt: runTimeAt < 0 ? i : runTimeAt };
      // A positional known only at run time (`timeout "$T" rm`, `chroot "$R" rm`): bash still
      // runs the command after it. One that expands to options too would shift it: the later
      // words are read as the command too (peelWrappers' alternates).
      if (runTimeAt < 0) runTimeAt = i;
      positionals -= 1;
      i += 1;
      continue;
    }
    const text = word.text;
    if (wrapper.noCommand.includes(text)) return { index: -1, split, runTimeAt };
    if (text === '--') {
      i += 1;
      break;
    }
    if (text.startsWith('--')) {
      const eq = text.indexOf('=');
      const flag = eq >= 0 ? text.slice(0, eq) : text;
      if (flag === '--split-string')
        split = eq >= 0 ? text.slice(eq + 1) : (words[i + 1]?.text ?? null);
      i += eq < 0 && wrapper.longArgs.includes(flag) ? 2 : 1;
      continue;
    }
    if (text.startsWith('-') && text.length > 1) {
      let consumed = 1;
      for (let c = 1; c < text.length; c += 1) {
        const letter = text[c] as string;
        if (wrapper.noCommand.includes(`-${letter}`)) return { index: -1, split, runTimeAt };
        if (wrapper.shortArgs.includes(letter)) {
          const attached = text.slice(c + 1);
          const value = attached !== '' ? attached : (words[i + 1]?.text ?? null);
          if (letter === 'S') split = value;
          if (attached === '') consumed = 2;
          break;
        }
      }
      i += consumed;
      continue;
    }
    if (wrapper.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) {
      i += 1;
      continue;
    }
    if (positionals > 0) {
      positionals -= 1;
      i += 1;
      continue;
    }
    break;
  }
  while (positionals > 0 && i < words.length) {
    positionals -= 1;
    i += 1;
  }
  return { index: i < words.length ? i : -1, split, runTimeAt };
}

function plainWords(text: string): ShellWord[] {
  return text
    .split(/\s+/)
    .filter((w) => w !== '')
    .map((w) => ({ text: w, literal: true, glob: false, parts: [{ kind: 'text', text: w }] }));
}

/**
 * Peel wrappers (nested, e.g. `sudo nice -n 5 timeout 9 rm`) off a command's words. `read` holds
 * the first words of the alternate readings already made, across every nested wrapper: each
 * later word starts one reading at most, so many run-time words cost time linear in the words.
 */
export function peelWrappers(
  words: readonly ShellWord[],
  read: Set<ShellWord> = new Set(),
): Peeled {
  let current = words;
  const wrappers: ShellWrapper[] = [];
  let payload: string | null = null;
  const alternates: AlternateReading[] = [];
  for (;;) {
    const name = binaryOf(current[0]);
    const wrapper = name === null ? undefined : WRAPPERS.get(name);
    if (name === null || wrapper === undefined) break;
    const { index, split, runTimeAt } = commandIndex(current, wrapper);
    if (runTimeAt >= 0)
      alternates.push(...laterReadings(current, runTimeAt, index, wrappers, read));
    // `env -S 'sh -s'` splits the string into the command's first words: plain words are
    // those words; one with a quote or an expansion is judged as shell text (the payload).
    const spliced = split !== null && /^[^'"\\$`]*$/.test(split) ? plainWords(split) : [];
    if (split !== null && spliced.length === 0) payload = split;
    if (index < 0 && spliced.length === 0) break;
    wrappers.push({ name, args: current.slice(1, index < 0 ? current.length : index) });
    current = [...spliced, ...(index < 0 ? [] : current.slice(index))];
  }
  return { words: current, wrappers, payload, alternates };
}

/**
 * The commands `words` may run when the word at `runTimeAt` is known only at run time: each later
 * word but the one read as the command (`index`) may start it, peeled of its own wrappers.
 */
function laterReadings(
  words: readonly ShellWord[],
  runTimeAt: number,
  index: number,
  before: readonly ShellWrapper[],
  read: Set<ShellWord>,
): AlternateReading[] {
  const wrapper: ShellWrapper = { name: binaryOf(words[0]) ?? '', args: words.slice(1) };
  const readings: AlternateReading[] = [];
  for (let at = runTimeAt + 1; at < words.length; at += 1) {
    const first = words[at] as ShellWord;
    if (at === index || read.has(first)) continue;
    read.add(first);
    const peeled = peelWrappers(words.slice(at), read);
    const wrappers = [...before, wrapper];
    readings.push(
      { words: peeled.words, wrappers: [...wrappers, ...peeled.wrappers] },
      ...peeled.alternates.map((reading) => ({
        words: reading.words,
        wrappers: [...wrappers, ...reading.wrappers],
      })),
    );
  }
  return readings;
}

/** The text a word stands for when nothing in it is decided at run time (`$(echo x)` counts as x). */
function staticText(word: ShellWord): string | null {
  if (word.literal) return word.text;
  let text = '';
  for (const part of word.parts) {
    if (part.kind === 'text') text += part.text;
    else if (part.kind === 'dynamic' && part.output !== null) text += part.output;
    else return null;
  }
  return text;
}

/**
 * The shell text a word hands to another shell: its static text, with each variable written
 * back as `${name}` (the shell expands it there as it would here: `eval "rm -rf $HOME"`).
 */
function payloadText(word: ShellWord): string | null {
  if (word.literal) return word.text;
  let text = '';
  for (const part of word.parts) {
    if (part.kind === 'text') text += part.text;
    else if (part.kind === 'var') text += `\${${part.name}}`;
    else if (part.output !== null) text += part.output;
    else return null;
  }
  return text;
}

// Programs whose -c (or --command) value is shell text: `su -c`, `flock FILE -c`, `script -c`.
const COMMAND_OPTION: ReadonlySet<string> = new Set(['su', 'flock', 'script']);

/** The shell text a command runs besides its own words: `bash -c TEXT`, `eval ...`, `su -c TEXT`. */
export function shellPayload(binary: string | null, args: readonly ShellWord[]): string | null {
  if (binary === 'eval') {
    const texts = args.map(payloadText);
    return texts.length > 0 && texts.every((t) => t !== null) ? texts.join(' ') : null;
  }
  if (binary !== null && COMMAND_OPTION.has(binary)) {
    const inline = args.find((a) => a.text.startsWith('--command='));
    if (inline !== undefined) return inline.literal ? inline.text.slice('--command='.length) : null;
    // `-c TEXT`, or the last letter of a cluster (`script -qc TEXT`).
    const at = args.findIndex(
      (a) => a.literal && (a.text === '--command' || /^-[a-zA-Z]*c$/.test(a.text)),
    );
    const word = at >= 0 ? args[at + 1] : undefined;
    return word === undefined ? null : payloadText(word);
  }
  const at = shellScriptAt(binary, args);
  return at < 0 ? null : payloadText(args[at] as ShellWord);
}

/**
 * Where a shell's `-c` script is among its words (`bash -c SCRIPT NAME ARGS…`), or -1. The words
 * after it are the script's $0, $1 …
 */
export function shellScriptAt(binary: string | null, args: readonly ShellWord[]): number {
  if (binary === null || !SHELLS.has(binary)) return -1;
  let sawC = false;
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i] as ShellWord;
    const text = word.text;
    if (word.literal && (text === '-o' || text === '+o' || text === '-O' || text === '+O')) {
      i += 1;
      continue;
    }
    if (word.literal && /^-[a-zA-Z]+$/.test(text)) {
      if (text.includes('c')) sawC = true;
      continue;
    }
    if (word.literal && text.startsWith('--')) continue;
    return sawC ? i : -1;
  }
  return -1;
}
