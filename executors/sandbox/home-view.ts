// What of the home a sandbox shows code nobody reviewed (the read-only-code tier): an empty
// home, read-only, with only the places the decision named bound into it (its work tree, the
// files it names), and the tool directories a program needs to start: each PATH entry under
// the home brings its top-level entry (~/.pyenv, ~/.nvm, ~/.local, ~/.cargo, ~/bin), and
// python's user site (~/.local/lib) comes always. Secret stores inside them stay masked: the
// masks are laid over after (bwrap-args.ts).
import { isAbsolute, join, relative } from 'node:path';
import { isUnder } from '../../runtime/vaglio/normalize-path.ts';

/** Python's user site (site.USER_SITE lives below it): what `import` finds pip --user installs in. */
const USER_SITE = join('.local', 'lib');

/** The top-level entries of the home that hold a PATH entry, and python's user site. */
export function toolPlaces(path: string | undefined, home: string): string[] {
  const tops = (path ?? '')
    .split(':')
    .filter((entry) => isAbsolute(entry) && entry !== home && isUnder(entry, home))
    .map((entry) => join(home, relative(home, entry).split('/')[0] ?? ''));
  return [...tops, join(home, USER_SITE)];
}

/**
 * The places to bind read-only into the empty home, outermost first, none inside another and
 * none the home itself (a place that holds the home would show all of it).
 */
export function homeViewPlaces(
  view: readonly string[],
  path: string | undefined,
  home: string,
): string[] {
  const places = [...new Set([...toolPlaces(path, home), ...view])]
    .filter((place) => place !== home && isUnder(place, home))
    .sort((a, b) => a.length - b.length);
  return places.filter((place, at) => !places.slice(0, at).some((outer) => isUnder(place, outer)));
}
