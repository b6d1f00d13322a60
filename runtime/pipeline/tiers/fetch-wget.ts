// wget as the fetch tier reads it: one https URL, quiet or not, saved as a new file, the name
// its own (`-O FILE`) or the URL's last segment (in the cwd, or in `-P DIR`); `-O -` prints it.
// Anything else asks: recursion (-r, -m), a list of URLs (-i), data (--post-*), commands
// (-e, --execute), another config (--config), a log file (-o), -N and -c (they rewrite a file
// that exists), and every option not listed here (wget takes any unambiguous prefix of a long
// option: such spellings are not listed, so they ask too).
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

// -nv and -nc are two-letter short options: read as their long names.
const TWO_LETTER: ReadonlyMap<string, string> = new Map([
  ['-nv', '--no-verbose'],
  ['-nc', '--no-clobber'],
]);
const WGET_FLAGS = ['-q', '--quiet', '--no-verbose', '--no-clobber', '--show-progress'];
const WGET_NUMBERS = ['-T', '--timeout', '-t', '--tries'];

/** The one https URL a plain wget GET fetches and the file it saves it to (null: the output), or null. */
export function wgetFetch(given: readonly string[]): Fetched | null {
  const args = given.map((word) => TWO_LETTER.get(word) ?? word);
  const parsed = words(args, {
    flags: WGET_FLAGS,
    valued: [...WGET_NUMBERS, '-O', '--output-document', '-P', '--directory-prefix'],
  });
  if (parsed === null || parsed.operands.length !== 1) return null;
  if (!numbersOnly(parsed.values, WGET_NUMBERS)) return null;
  const url = httpsUrl(parsed.operands[0] as string);
  if (url === null) return null;
  const document = parsed.values['-O'] ?? parsed.values['--output-document'];
  const documents = spellings(args, 'output-document', 'O');
  // `-O -` (or `-qO-`) prints it.
  if (document === '-' && documents === 1 && spellings(args, 'directory-prefix', 'P') === 0)
    return { url, output: null };
  const file = ownWordValue(args, /^(?:-[A-Za-z]*O|--output-document)$/, documents, document);
  const dir = ownWordValue(
    args,
    /^(?:-[A-Za-z]*P|--directory-prefix)$/,
    spellings(args, 'directory-prefix', 'P'),
    parsed.values['-P'] ?? parsed.values['--directory-prefix'],
  );
  if (file === null || dir === null || (file !== undefined && dir !== undefined)) return null;
  if (file !== undefined) return { url, output: file };
  const name = remoteName(url);
  if (name === null) return null;
  return { url, output: dir === undefined ? name : inDirectory(dir, name) };
}
