// What a sandbox shows code nobody reviewed (the read-only-code tier), built on an empty root
// instead of the host's whole `/`: the system's own parts read-only (programs, libraries, /etc,
// /sys; its secrets masked as for every call), the places its decision named (its work tree,
// the files it names: runtime/pipeline/workspace/code-view.ts), and the tool directories a
// program needs to start. Each PATH entry under the home brings its top-level entry (~/.pyenv,
// ~/.nvm, ~/.local, ~/.cargo, ~/bin), python's user site (~/.local/lib) comes always, and a PATH
// entry elsewhere comes with its tool's prefix (/root/.pyenv for /root/.pyenv/shims). Nothing
// else: /srv, /mnt, /media, /var, /home, /work and the rest of the home are not there.
import { statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import { isUnder } from '../../runtime/vaglio/normalize-path.ts';

/** The system's parts every program may need, none of them where people keep their files. */
export const SYSTEM_PARTS: readonly string[] = [
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/etc',
  '/opt',
  '/nix',
  '/sys',
];

/** True when `path` is inside one of the system's parts (shown to every sandbox). */
export function inSystemView(path: string): boolean {
  return SYSTEM_PARTS.some((part) => isUnder(path, part));
}

/** Python's user site (site.USER_SITE lives below it): what `import` finds pip --user installs in. */
const USER_SITE = join('.local', 'lib');

/** Directory names a tool's prefix keeps its programs in: the prefix holds what they load. */
const PROGRAM_DIRS: ReadonlySet<string> = new Set(['bin', 'sbin', 'shims']);

/**
 * A PATH entry outside the home and the system's parts, and its tool's prefix when the entry is
 * one of its program dirs, unless that prefix is `/` or directly below it (/home, /root: homes).
 */
function outsideToolPlaces(entry: string): string[] {
  const prefix = dirname(entry);
  const withPrefix = PROGRAM_DIRS.has(basename(entry)) && dirname(prefix) !== '/';
  return withPrefix ? [prefix] : [entry];
}

/** The places that hold the PATH's programs, and python's user site. */
export function toolPlaces(path: string | undefined, home: string): string[] {
  const entries = (path ?? '')
    .split(':')
    .filter((entry) => isAbsolute(entry) && entry !== home && !inSystemView(entry));
  const inHome = entries
    .filter((entry) => isUnder(entry, home))
    .map((entry) => join(home, relative(home, entry).split('/')[0] ?? ''));
  const elsewhere = entries
    .filter((entry) => !isUnder(entry, home) && !isUnder(home, entry))
    .flatMap(outsideToolPlaces);
  return [...inHome, ...elsewhere, join(home, USER_SITE)];
}

/**
 * True when `place` exists but this process may not look at it (a PATH entry in another user's
 * home): bwrap would refuse the whole run over it, and nothing there could be shown anyway. A
 * place that is not there is left to `--ro-bind-try`.
 */
function unreachable(place: string): boolean {
  try {
    statSync(place, { throwIfNoEntry: false });
    return false;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'EACCES' || code === 'EPERM';
  }
}

/**
 * The places to bind read-only, outermost first, none inside another, none a system part (shown
 * already), and none `/`, the home or a place that holds it (that would show all of it).
 */
export function codeViewPlaces(
  view: readonly string[],
  path: string | undefined,
  home: string,
): string[] {
  const places = [...new Set([...toolPlaces(path, home), ...view])]
    .filter((place) => isAbsolute(place) && !isUnder(home, place) && !inSystemView(place))
    .filter((place) => !unreachable(place))
    .sort((a, b) => a.length - b.length);
  return places.filter((place, at) => !places.slice(0, at).some((outer) => isUnder(place, outer)));
}
