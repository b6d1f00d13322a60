// `curl -fsSL https://api.github.com/repos/x/y/releases/latest | grep tag_name` is web_fetch
// written in the shell: one GET of one https URL, its body to the output, read by read-only
// filters. It runs without a card, like web_fetch, with the network only through Custode's
// proxy (executors/web/fetch-proxy.ts), which checks every host it is asked for (redirects
// included) as web_fetch does. Anything that sends data (-d, -F, -T, -X, headers, cookies,
// a user), writes a file (-o, -O, a redirect), reads a config (-K, .curlrc's -q) or names
// another route (--proxy, --resolve, --connect-to, --unix-socket) asks.
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

/** The one https URL a plain curl GET fetches, or null when it does anything more. */
function fetchedUrl(command: ShellCommand): URL | null {
  if (command.binary !== 'curl' || command.name?.text !== 'curl') return null;
  if (command.wrappers.length > 0 || command.assignments.length > 0) return null;
  if (command.redirects.length > 0 || command.background || command.origin !== 'top') return null;
  if (!command.args.every((word) => word.literal)) return null;
  const parsed = words(
    command.args.map((word) => word.text),
    { flags: CURL_FLAGS, valued: CURL_NUMBERS },
  );
  if (parsed === null || parsed.operands.length !== 1) return null;
  const numbers = CURL_NUMBERS.map((option) => parsed.values[option]);
  if (!numbers.every((value) => value === undefined || /^\d+(?:\.\d+)?$/.test(String(value))))
    return null;
  const text = parsed.operands[0] as string;
  // curl expands [1-9] and {a,b} in a URL into several requests.
  if (/[[\]{}]/.test(text)) return null;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' && url.username === '' && url.password === '' ? url : null;
  } catch {
    return null;
  }
}

/** A line that is one plain curl GET, alone or at the head of a pipeline; the rest of its commands. */
export interface FetchLine {
  readonly url: URL;
  /** The line without the curl: what the read-only catalogue must pass. */
  readonly rest: ParsedShell;
}

/** The fetch in this line and the rest of it, or null when it is not that shape. */
export function fetchLine(shell: ParsedShell): FetchLine | null {
  if (shell.errors || shell.hasSubstitution || shell.functions.size > 0) return null;
  const [first, ...others] = shell.commands;
  if (first === undefined) return null;
  const url = fetchedUrl(first);
  if (url === null || first.pipeline.stage !== 0) return null;
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
  return { url, rest: { ...shell, commands: others, andChain: null } };
}
