// Lexical path normalisation shared by the guard and the scope stage: the same spelling
// tricks (~, $HOME, ${HOME}, //, ., ..) must lead both to the same path. No file system access:
// symlinks are the scope stage's business, this only undoes what text can disguise.

const HOME_PREFIX = /^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/;
// Anything normalisation could change: a home prefix, //, a . or .. segment, a trailing slash.
const NEEDS_WORK = /^[~$]|\/\/|(?:^|\/)\.\.?(?:\/|$)|.\/$/;

/** Expand a leading ~ / $HOME / ${HOME}, collapse //, resolve . and .. lexically; relative stays relative. */
export function normalizePath(input: string, home: string): string {
  // Most paths are already normal; the guard calls this for every token it sees.
  if (input !== '' && !NEEDS_WORK.test(input)) return input;
  const expanded = input.replace(HOME_PREFIX, () => home);
  const absolute = expanded.startsWith('/');
  const out: string[] = [];
  for (const segment of expanded.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      // Above the root is the root; above a relative start the .. must stay (it is not ours to drop).
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!absolute) out.push('..');
      continue;
    }
    out.push(segment);
  }
  const joined = out.join('/');
  if (absolute) return `/${joined}`;
  return joined === '' ? '.' : joined;
}

/** True when `path` is `root` or below it; both absolute and normalised. */
export function isUnder(path: string, root: string): boolean {
  return root === '/' || path === root || path.startsWith(`${root}/`);
}
