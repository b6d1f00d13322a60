// Text a line writes into a file and uses again later in the same line: a script written then
// run (`printf ':(){ :|:& };:' > b.sh && bash b.sh`, `cat > s.sh <<EOF … EOF; sh s.sh`), a list
// written then fed to a deleter (`echo ~ > list; xargs rm -rf < list`). The file's text is
// known from the words, so it is judged as if it were written inline.
import { SHELLS } from '../../constitution/command-effects.ts';
import type { ShellCommand } from './types.ts';

// echo/printf options that only shape the output.
const ECHO_OPTIONS = /^-[neE]+$/;

/** What a literal `echo`/`printf` prints (escapes `\n` as newlines); null when not literal. */
export function echoedText(command: ShellCommand): string | null {
  if (command.binary !== 'echo' && command.binary !== 'printf') return null;
  if (!command.args.every((a) => a.literal)) return null;
  return command.args
    .filter((a) => !ECHO_OPTIONS.test(a.text))
    .map((a) => a.text)
    .join(' ')
    .replace(/\\n/g, '\n');
}

/** A file name as the same line spells it again (`./b.sh` and `b.sh` are one file). */
export function fileKey(text: string): string {
  return text.replace(/^(?:\.\/)+/, '');
}

/**
 * The file a command writes and the text it writes there: a literal echo/printf, or what cat or
 * tee reads (a here-document, or `fed`: a literal echo piped in), into a literal `>`/`>>` target
 * (or tee's operand).
 */
export function writtenText(
  command: ShellCommand,
  fed: string | null,
): { file: string; text: string } | null {
  const text =
    echoedText(command) ??
    (command.binary === 'cat' || command.binary === 'tee' ? (command.stdinText ?? fed) : null);
  if (text === null) return null;
  const target = command.redirects.find(
    (r) => r.writes && (r.op === '>' || r.op === '>>' || r.op === '>|') && r.target?.literal,
  )?.target;
  const teeFile =
    command.binary === 'tee'
      ? command.args.find((a) => a.literal && !a.text.startsWith('-'))
      : undefined;
  const file = teeFile ?? target;
  return file === undefined || file === null ? null : { file: fileKey(file.text), text };
}

/** The script file a command runs: `bash f`, `sh -e f`, `. f`, `source f`, `./f`. */
export function scriptRun(command: ShellCommand): string | null {
  const { binary, name, args } = command;
  if (binary === null || name === null) return null;
  if (binary === '.' || binary === 'source') return args[0]?.literal ? fileKey(args[0].text) : null;
  if (SHELLS.has(binary)) {
    const script = args.find((a) => !a.text.startsWith('-') && !a.text.startsWith('+'));
    return script?.literal === true ? fileKey(script.text) : null;
  }
  return name.literal && name.text.includes('/') ? fileKey(name.text) : null;
}
