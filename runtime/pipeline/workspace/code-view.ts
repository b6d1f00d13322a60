// What of the home code nobody reviewed may see (the read-only-code tier): no more than a read
// without a card of the place it works in. Such code can print what it reads in any form (reversed,
// xor), which no output check knows, and the next call can send it out; so it sees, read-only,
// only its work tree and the paths it names, each cleared by the check a no-card read of it gets
// (a tree as `grep -r . TREE` is), and the sandbox shows it nothing else of the home
// (executors/sandbox/home-view.ts adds the tool directories it needs to start).
import { readPathCheck } from '../read-only-policy.ts';
import { isUnder } from '../../vaglio/normalize-path.ts';
import type { WorkspaceScope } from './policy.ts';

/**
 * The places of the home the code sees, or null when one of them a read without a card could not
 * read whole (the call then asks). The place it works: its git work tree when the cwd is in one
 * below the home, else the cwd; none when that is the home itself (or holds it): the code then
 * gets an empty home, never the whole of it. `named`: the words it reads as paths (its operands,
 * already read-checked, directories as trees), shown where they exist in the home.
 */
export function codeHomeView(
  named: readonly string[],
  workTree: string | null,
  scope: WorkspaceScope,
): string[] | null {
  const homes = [scope.home, scope.realHome];
  const inHome = (path: string): boolean =>
    homes.some((home) => isUnder(path, home)) && !homes.some((home) => isUnder(home, path));
  const tree = workTree !== null && inHome(workTree) ? workTree : scope.cwd;
  const worksIn = inHome(tree) ? [tree] : [];
  const check = readPathCheck(scope);
  if (!worksIn.every((place) => check(place, { glob: false, deviceMetadata: false, tree: true })))
    return null;
  const paths = named
    .map((word) => scope.paths.absolute(word, scope.cwd))
    .filter((path) => scope.realPath(path) !== null && inHome(path));
  // Bound by the name the call uses and where it leads: the cwd it runs in may be either.
  const places = [...worksIn, ...paths].flatMap((path) => [path, scope.realPath(path) ?? path]);
  return [...new Set(places)];
}
