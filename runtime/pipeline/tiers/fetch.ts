// `curl -fsSL https://api.github.com/repos/x/y/releases/latest | grep tag_name` is web_fetch
// written in the shell: one GET of one https URL, its body to the output, read by read-only
// filters. It runs without a card, like web_fetch, with the network only through Custode's
// proxy (executors/web/fetch-proxy.ts), which checks every host it is asked for (redirects
// included) as web_fetch does. Anything that sends data (-d, -F, -T, -X, headers, cookies,
// a user), writes a file by another route (-O, a redirect, -o twice), reads a config (-K,
// .curlrc's -q) or names another route (--proxy, --resolve, --connect-to, --unix-socket) asks.
// `-o FILE` is a download: the tiers let it make FILE only as the workspace tier makes a new
// file (it must not exist, inside roots.write, never hidden), and record it as unreviewed.
import type { ParsedShell, ShellCommand } from '../../shell/types.ts';
import { opensNothing } from '../../../constitution/process-use.ts';
import { TEXT_FILTERS } from '../../../constitution/programs.ts';
import { words } from '../workspace/spec.ts';

// Options that only shape how the answer is read and printed.
const CURL_FLAGS = [
  '-s',
  '--silent',
  '-S',
  '--show-error',
  '-f',
  '--fail',
  '--fail-with-body',
  '-L',
  '--location',
  '-i',
  '--include',
  '-I',
  '--head',
  '--compressed',
  '--http1.1',
  '--http2',
];
const CURL_NUMBERS = ['-m', '--max-time', '--connect-timeout', '--retry', '--max-redirs'];

const OUTPUT = ['-o', '--output'];

/** How many words name an output file: `-o F`, `-oF`, `-sSLo F`, `--output F`, `--output=F`. */
function outputWords(args: readonly string[]): number {
  return args.filter(
    (word) => /^--output(?:=|$)/.test(word) || (/^-[^-]/.test(word) && word.includes('o')),
  ).length;
}

const NO_OUTPUT = Symbol('no output file');

/**
 * The file a curl saves to, NO_OUTPUT for none, or null when its spelling is not plain: one
 * output word at most (with two, curl writes the first and the parse keeps the last), its value
 * a word of its own (bash expands `~/` there, never in `--output=~/x` or `-o~/x`), not an option,
 * not `-` (the output), not `~user`.
 */
function outputFile(
  args: readonly string[],
  parsed: string | boolean | undefined,
): string | typeof NO_OUTPUT | null {
  const count = outputWords(args);
  if (parsed === undefined) return count === 0 ? NO_OUTPUT : null;
  const at = args.findIndex((word) => /^(?:-[A-Za-z]*o|--output)$/.test(word));
  const value = args[at + 1];
  if (count !== 1 || at < 0 || value !== parsed || typeof parsed !== 'string') return null;
  return value === '' || value.startsWith('-') || /^~[^/]/.test(value) ? null : value;
}

/** A plain curl GET: its URL, and the file it writes (-o) or null for its output. */
interface Fetched {
  readonly url: URL;
  readonly output: string | null;
}

/** The one https URL a plain curl GET fetches (and the one file it saves it to), or null when it does anything more. */
function fetchedUrl(command: ShellCommand): Fetched | null {
  if (command.binary !== 'curl' || command.name?.text !== 'curl') return null;
  if (command.wrappers.length > 0 || command.assignments.length > 0) return null;
  if (command.redirects.length > 0 || command.background || command.origin !== 'top') return null;
  if (!command.args.every((word) => word.literal)) return null;
  const args = command.args.map((word) => word.text);
  const parsed = words(args, { flags: CURL_FLAGS, valued: [...CURL_NUMBERS, ...OUTPUT] });
  if (parsed === null || parsed.operands.length !== 1) return null;
  const output = outputFile(args, parsed.values['-o'] ?? parsed.values['--output']);
  if (output === null) return null;
  const numbers = CURL_NUMBERS.map((option) => parsed.values[option]);
  if (!numbers.every((value) => value === undefined || /^\d+(?:\.\d+)?$/.test(String(value))))
    return null;
  const text = parsed.operands[0] as string;
  // curl expands [1-9] and {a,b} in a URL into several requests.
  if (/[[\]{}]/.test(text)) return null;
  try {
    const url = new URL(text);
    if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return null;
    return { url, output: output === NO_OUTPUT ? null : output };
  } catch {
    return null;
  }
}

/** A line that is one plain curl GET, alone or at the head of a pipeline; the rest of its commands. */
export interface FetchLine {
  readonly url: URL;
  /** The file `-o` saves the body to (then the line is the curl alone), or null. */
  readonly output: string | null;
  /** The line without the curl: what the read-only catalogue must pass. */
  readonly rest: ParsedShell;
}

/** The fetch in this line and the rest of it, or null when it is not that shape. */
export function fetchLine(shell: ParsedShell): FetchLine | null {
  if (shell.errors || shell.hasSubstitution || shell.functions.size > 0) return null;
  const [first, ...others] = shell.commands;
  if (first === undefined) return null;
  const fetched = fetchedUrl(first);
  if (fetched === null || first.pipeline.stage !== 0) return null;
  if (fetched.output !== null && others.length > 0) return null;
  // The rest reads its output: the same pipeline, after the curl.
  // …and opens nothing itself: an input redirect from /dev/tcp, or a program with a network
  // client of its own (npm view --noproxy), would go past the proxy.
  const reads = (c: ShellCommand): boolean =>
    c.pipeline.id === first.pipeline.id &&
    c.origin === 'top' &&
    c.binary !== null &&
    TEXT_FILTERS.has(c.binary) &&
    opensNothing(c);
  if (!others.every(reads)) return null;
  return { ...fetched, rest: { ...shell, commands: others, andChain: null } };
}
