// curl as the fetch tier reads it: options that only shape how the answer is read and printed,
// and at most one place to save it: `-o FILE`, or `-O` (the URL's last segment), either one
// under `--output-dir DIR`. Anything else (data, headers, config, routes, --create-dirs) asks.
import { words } from '../workspace/spec.ts';
import {
  httpsUrl,
  inDirectory,
  numbersOnly,
  ownWordValue,
  remoteName,
  spellings,
  type Fetched,
} from './fetch-url.ts';

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
const REMOTE_NAME = ['-O', '--remote-name'];

/** The file a plain curl GET saves to, null for its output, or undefined when it is not plain. */
function savedTo(args: readonly string[], values: Record<string, string | boolean | undefined>) {
  const file = ownWordValue(
    args,
    /^(?:-[A-Za-z]*o|--output)$/,
    spellings(args, 'output', 'o'),
    values['-o'] ?? values['--output'],
  );
  const dir = ownWordValue(
    args,
    /^--output-dir$/,
    spellings(args, 'output-dir'),
    values['--output-dir'],
  );
  const remote = spellings(args, 'remote-name', 'O');
  if (file === null || dir === null || remote > 1) return undefined;
  return { file, dir, remote: remote === 1 };
}

/** The one https URL a plain curl GET fetches and the one file it saves it to, or null. */
export function curlFetch(args: readonly string[]): Fetched | null {
  const parsed = words(args, {
    flags: [...CURL_FLAGS, ...REMOTE_NAME],
    valued: [...CURL_NUMBERS, '-o', '--output', '--output-dir'],
  });
  if (parsed === null || parsed.operands.length !== 1) return null;
  if (!numbersOnly(parsed.values, CURL_NUMBERS)) return null;
  const url = httpsUrl(parsed.operands[0] as string);
  const saved = savedTo(args, parsed.values);
  if (url === null || saved === undefined) return null;
  const { file, dir, remote } = saved;
  if (remote && file !== undefined) return null;
  const name = remote ? remoteName(url) : file;
  if (name === null) return null;
  if (name === undefined) return dir === undefined ? { url, output: null } : null;
  // Under --output-dir the file is a name in it, as curl joins them.
  if (dir === undefined) return { url, output: name };
  return name.includes('/') ? null : { url, output: inDirectory(dir, name) };
}
