// Reading network targets out of a command's words: operands past valued options, and the host
// of a URL, a git remote or an ssh/rsync destination; and one command's Need. Pure helpers
// shared by network-use.ts and network-packages.ts.
import type { ShellWord } from '../runtime/shell/types.ts';

/** How a program's options take values: short letters, long names (`--x y`; `--x=y` is whole). */
export interface OptionSpec {
  readonly short: string;
  readonly long: readonly string[];
}

/**
 * Options of the copy programs that take a value (a port, a key file, a pattern, a program), so
 * that the value is never read as a file the program sends (`rsync --exclude .git ./ host:`).
 */
export const COPY_OPTIONS: Readonly<Record<'scp' | 'sftp' | 'rsync', OptionSpec>> = {
  scp: { short: 'cDFiJlPoSX', long: [] },
  sftp: { short: 'BbcDFiJlPoRSs', long: [] },
  rsync: {
    short: 'efTB',
    long: [
      ...['--rsh', '--rsync-path', '--filter', '--exclude', '--include', '--exclude-from'],
      ...['--include-from', '--files-from', '--password-file', '--log-file', '--partial-dir'],
      ...['--temp-dir', '--chmod', '--chown', '--port', '--timeout', '--contimeout'],
      ...['--compare-dest', '--copy-dest', '--link-dest', '--backup-dir', '--suffix'],
      ...['--max-size', '--min-size', '--max-delete', '--bwlimit', '--block-size', '--info'],
      ...['--debug', '--out-format', '--usermap', '--groupmap', '--address', '--sockopts'],
      ...['--skip-compress', '--modify-window', '--iconv', '--outbuf', '--checksum-choice'],
      '--compress-choice',
    ],
  },
};

/** The operands of `args` after skipping options and the values they take. */
export function operandWords(args: readonly ShellWord[], spec: OptionSpec): ShellWord[] {
  const out: ShellWord[] = [];
  let ended = false;
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i] as ShellWord;
    const text = word.text;
    if (ended || !word.literal || !text.startsWith('-') || text === '-') {
      out.push(word);
    } else if (text === '--') {
      ended = true;
    } else if (text.startsWith('--')) {
      if (!text.includes('=') && spec.long.includes(text)) i += 1;
    } else {
      // A bundle like -sSLo: a valued letter takes the rest of the bundle, or the next word.
      const letters = text.slice(1);
      const at = [...letters].findIndex((letter) => spec.short.includes(letter));
      if (at === letters.length - 1) i += 1;
    }
  }
  return out;
}

/** The values given to one option (`--x y`, `--x=y`, `-x y`, `-xy`), literal or not. */
export function valuesOf(
  args: readonly ShellWord[],
  short: string | null,
  long: readonly string[],
): ShellWord[] {
  const out: ShellWord[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const text = (args[i] as ShellWord).text;
    if (text === '--') break;
    const next = args[i + 1];
    const eq = text.indexOf('=');
    const name = eq === -1 ? text : text.slice(0, eq);
    if (long.includes(name)) {
      if (eq !== -1) out.push({ ...(args[i] as ShellWord), text: text.slice(eq + 1) });
      else if (next !== undefined) out.push(next);
    } else if (short !== null && text.startsWith(short) && !text.startsWith('--')) {
      if (text.length > short.length) out.push({ ...(args[i] as ShellWord), text: text.slice(2) });
      else if (next !== undefined) out.push(next);
    }
  }
  return out;
}

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
const HOSTNAME = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z][a-z0-9-]*$|^localhost$/i;

/** The lower-case host of a URL text, or null when it names none; `file:` URLs are local. */
export function urlHost(text: string, schemeless: boolean): string | null | 'local' {
  const scheme = SCHEME.exec(text)?.[1]?.toLowerCase();
  if (scheme === 'file') return 'local';
  const candidate = scheme !== undefined ? text : schemeless ? `http://${text}` : null;
  if (candidate === null || !URL.canParse(candidate)) return null;
  const host = new URL(candidate).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host.length === 0) return null;
  if (scheme !== undefined) return host;
  // Without a scheme only a plain domain, localhost or an IP counts: `out.html` is a file name.
  return HOSTNAME.test(host) && !/\.(?:html?|json|txt|tar|gz|zip|sh|md)$/i.test(host)
    ? host
    : /^\d+\.\d+\.\d+\.\d+$/.test(host)
      ? host
      : null;
}

/** `user@host:path` or `host:path` (scp syntax): the host, else null (a local path). */
export function scpHost(text: string): string | null {
  const colon = text.indexOf(':');
  const slash = text.indexOf('/');
  if (colon <= 0 || (slash !== -1 && slash < colon)) return null;
  const host = text.slice(text.lastIndexOf('@', colon) + 1, colon).toLowerCase();
  return host.length > 0 && /^[a-z0-9.[\]-]+$/i.test(host) ? host.replace(/^\[|\]$/g, '') : null;
}

/** A git remote or repository: URL, scp-style, or neither (a local path or a remote's name). */
export function gitRemoteHost(text: string): string | 'local' | 'named' {
  if (SCHEME.test(text)) return urlHost(text, false) ?? 'named';
  if (text.startsWith('/') || text.startsWith('.') || text.startsWith('~')) return 'local';
  return scpHost(text) ?? (text.includes('/') ? 'local' : 'named');
}

/** An ssh destination: `host`, `user@host` or `ssh://user@host:port`. */
export function sshHost(text: string): string | null {
  if (SCHEME.test(text)) {
    const host = urlHost(text, false);
    return host === 'local' ? null : host;
  }
  const host = text.slice(text.lastIndexOf('@') + 1).toLowerCase();
  return /^[a-z0-9.-]+$/i.test(host) ? host : null;
}

/** One command's need: null when it needs no network; hosts null when they are unknown. */
export type Need = { readonly hosts: readonly string[] | null } | null;

/** A need whose hosts the text does not name. */
export const UNKNOWN: Need = { hosts: null };
/** Words that ask a program about itself: no network. */
export const VERSION_WORDS = new Set(['--version', '-v', '-V', 'version', 'help', '--help', '-h']);

/** Hosts without repeats, in order of appearance. */
export function unique(hosts: readonly string[]): string[] {
  return [...new Set(hosts)];
}

/** Hosts of the given words read as URLs; unknown when one is not literal or names no host. */
export function urlNeed(words: readonly ShellWord[], schemeless: boolean): Need {
  const hosts: string[] = [];
  let local = 0;
  for (const word of words) {
    if (!word.literal) return UNKNOWN;
    const host = urlHost(word.text, schemeless);
    if (host === null) return UNKNOWN;
    if (host === 'local') local += 1;
    else hosts.push(host);
  }
  if (hosts.length === 0) return local > 0 && local === words.length ? null : UNKNOWN;
  return { hosts: unique(hosts) };
}

/** The needs of several commands as one: unknown hosts win, hosts are joined. */
export function joinNeeds(needs: readonly Need[]): Need {
  const used = needs.filter((need): need is NonNullable<Need> => need !== null);
  if (used.length === 0) return null;
  if (used.some((need) => need.hosts === null)) return UNKNOWN;
  return { hosts: unique(used.flatMap((need) => need.hosts ?? [])) };
}
