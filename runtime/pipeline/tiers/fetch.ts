// `curl -fsSL https://api.github.com/repos/x/y/releases/latest | grep tag_name` is web_fetch
// written in the shell: one GET of one https URL, its body to the output, read by read-only
// filters. It runs without a card, like web_fetch, with the network only through Custode's
// proxy (executors/web/fetch-proxy.ts), which checks every host it is asked for (redirects
// included) as web_fetch does. Anything that sends data (-d, -F, -T, -X, headers, cookies,
// a user), writes a file by another route (a redirect, -o twice), reads a config (-K,
// .curlrc's -q) or names another route (--proxy, --resolve, --connect-to, --unix-socket) asks.
// `curl -o FILE`, `curl -O` and `wget [-O FILE | -P DIR]` are downloads (fetch-curl.ts,
// fetch-wget.ts): the tiers let them make the file only as the workspace tier makes a new file
// (it must not exist, inside roots.write, never hidden), and record it as unreviewed.
import type { ParsedShell, ShellCommand } from '../../shell/types.ts';
import { opensNothing } from '../../../constitution/process-use.ts';
import { TEXT_FILTERS } from '../../../constitution/programs.ts';
import { curlFetch } from './fetch-curl.ts';
import type { Fetched } from './fetch-url.ts';
import { wgetFetch } from './fetch-wget.ts';

/** A downloader the tier reads by its own options, and the rules it answers with. */
interface Downloader {
  readonly read: (args: readonly string[]) => Fetched | null;
  /** The rule of a GET to the output. */
  readonly prints: string;
  /** The rule of a GET saved as a new file. */
  readonly saves: string;
}

const DOWNLOADERS: ReadonlyMap<string, Downloader> = new Map([
  ['curl', { read: curlFetch, prints: 'curl', saves: 'curl -o' }],
  ['wget', { read: wgetFetch, prints: 'wget -O -', saves: 'wget' }],
]);

/** The GET a plain curl or wget runs and its rule, or null when it does anything more. */
function fetchedUrl(command: ShellCommand): (Fetched & { readonly rule: string }) | null {
  const program = command.binary === null ? undefined : DOWNLOADERS.get(command.binary);
  if (program === undefined || command.name?.text !== command.binary) return null;
  if (command.wrappers.length > 0 || command.assignments.length > 0) return null;
  if (command.redirects.length > 0 || command.background || command.origin !== 'top') return null;
  if (!command.args.every((word) => word.literal)) return null;
  const fetched = program.read(command.args.map((word) => word.text));
  if (fetched === null) return null;
  return { ...fetched, rule: fetched.output === null ? program.prints : program.saves };
}

/** A line that is one plain curl or wget GET, alone or at the head of a pipeline; the rest of its commands. */
export interface FetchLine {
  readonly url: URL;
  /** The rule it answers with (`curl`, `curl -o`, `wget`, `wget -O -`). */
  readonly rule: string;
  /** The file the body is saved to (then the line is the download alone), or null. */
  readonly output: string | null;
  /** The line without the download: what the read-only catalogue must pass. */
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
