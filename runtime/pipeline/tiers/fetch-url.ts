// What the fetch tier's downloaders have in common: the one https URL they GET, the name a
// download takes from it, and an option's value spelt as a word of its own.

/** A plain GET: its URL, and the file it writes or null for its output. */
export interface Fetched {
  readonly url: URL;
  readonly output: string | null;
}

/**
 * The URL a word names when it is one plain https URL (no login in it; no `[1-9]` or `{a,b}`,
 * which curl expands into several requests), or null.
 */
export function httpsUrl(text: string): URL | null {
  if (/[[\]{}]/.test(text)) return null;
  try {
    const url = new URL(text);
    if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return null;
    return url;
  } catch {
    return null;
  }
}

/**
 * The name `wget URL` and `curl -O URL` save to: the URL's last path segment, when it is a
 * plain visible name (letters, digits, `._+-`, no `%` escape: the programs decode or keep
 * those differently) and the URL has no query (wget keeps it in the name); otherwise null.
 */
export function remoteName(url: URL): string | null {
  if (url.search !== '' || url.hash !== '') return null;
  const name = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
  return /^[A-Za-z0-9][A-Za-z0-9._+-]*$/.test(name) ? name : null;
}

/**
 * The value of an option that names a file or directory, when it is spelt plainly: one option
 * word (`spelt` matches it: `-o`, `-sSLo`, `--output`; `count` words spell it in all) followed by its value as a word of its own
 * (bash expands `~/` there, never in `--output=~/x` or `-o~/x`), the value not an option, not
 * empty, not `~user`. `parsed` is the value the option parser saw: both must agree. Undefined
 * when the option is absent (and no other spelling of it is there), null when not plain.
 */
export function ownWordValue(
  args: readonly string[],
  spelt: RegExp,
  count: number,
  parsed: string | boolean | undefined,
): string | undefined | null {
  if (parsed === undefined) return count === 0 ? undefined : null;
  const at = args.findIndex((word) => spelt.test(word));
  const value = args[at + 1];
  if (count !== 1 || at < 0 || value !== parsed || typeof parsed !== 'string') return null;
  return value === '' || value.startsWith('-') || /^~[^/]/.test(value) ? null : value;
}

/** How many times the words spell the option `--long` (also `--long=V`) or its short `letter` (alone or in a cluster: `-OO` twice). */
export function spellings(args: readonly string[], long: string, letter?: string): number {
  const longWord = new RegExp(`^--${long}(?:=|$)`);
  const times = (word: string): number => {
    if (longWord.test(word)) return 1;
    if (letter === undefined || !/^-[^-]/.test(word)) return 0;
    return word.split(letter).length - 1;
  };
  return args.reduce((sum, word) => sum + times(word), 0);
}

/** Whether each of `options` that was given has a plain number as its value (a timeout, a count). */
export function numbersOnly(
  values: Readonly<Record<string, string | boolean | undefined>>,
  options: readonly string[],
): boolean {
  return options.every((option) => {
    const value = values[option];
    return value === undefined || /^\d+(?:\.\d+)?$/.test(String(value));
  });
}

/** `name` inside `dir`, joined as curl and wget join them. */
export function inDirectory(dir: string, name: string): string {
  return `${dir.replace(/\/+$/, '')}/${name}`;
}
