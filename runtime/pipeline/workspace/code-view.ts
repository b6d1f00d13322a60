// What code nobody reviewed may see (the read-only-code tier): no more than a read without a card
// of the place it works in. Such code can print what it reads in any form (reversed, xor), which
// no output check knows, and the next call can send it out; so it sees, read-only, only the
// system's own parts (executors/sandbox/code-view-places.ts), its work tree and the paths it
// names, each cleared by the check a no-card read of it gets (a tree as `grep -r . TREE` is,
// except that a credential file below it is hidden by the sandbox instead of making it ask), and
// nothing else: not the rest of the home, not /srv, /mnt, /var or another user's home.
import { inSystemView } from '../../../executors/sandbox/code-view-places.ts';
import type { CodeView } from '../../../executors/ops/shell-ops.ts';
import { readPathCheck } from '../read-only-policy.ts';
import { dirname, join, relative } from 'node:path';
import { isUnder } from '../../vaglio/normalize-path.ts';
import type { WorkspaceScope } from './policy.ts';

/**
 * What the code sees, or null when a place a read without a card could not read whole (the call
 * then asks). The place it works: its git work tree when the cwd is in one that holds no home,
 * else the cwd; none when that is a home itself (or holds one: the code then gets an empty home,
 * never the whole of it) or a system part, shown anyway. `named`: the words it reads as paths (its
 * operands, already read-checked, directories as trees), shown where they exist.
 */
export function codeView(
  named: readonly string[],
  workTree: string | null,
  scope: WorkspaceScope,
): CodeView | null {
  const homes = [scope.home, scope.realHome];
  const shown = (path: string): boolean =>
    !homes.some((home) => isUnder(home, path)) && !inSystemView(scope.realPath(path) ?? path);
  const tree = workTree !== null && shown(workTree) ? workTree : scope.cwd;
  const worksIn = shown(tree) ? [tree] : [];
  const check = readPathCheck(scope);
  const treeUse = { glob: false, deviceMetadata: false, tree: true, credentialsMasked: true };
  if (!worksIn.every((place) => check(place, treeUse))) return null;
  const hidden = worksIn.map((place) => scope.paths.maskableCredentials(place));
  const found = hidden.flatMap((one) => ('obstacle' in one ? [] : [one]));
  // A compressed file or archive holds text no check of its bytes reads: hidden as a credential
  // file is (`tar -xzOf backup.tgz` asks; code could unpack it and print it in any form).
  const credentials = found.flatMap((one) => [...one.credentials, ...one.compressed]);
  // A history may hold a hidden file's text compressed, or a credential removed from the tree
  // since (what `git show REV:.env` would print, which asks): hidden then.
  const historyHolds = (history: string): boolean =>
    scope.paths.historyCredential(dirname(history)) !== null;
  const allHistories = found.flatMap((one) => one.histories);
  const histories = credentials.length > 0 || allHistories.some(historyHolds) ? allHistories : [];
  const paths = named
    .map((word) => scope.paths.absolute(word, scope.cwd))
    .filter((path) => scope.realPath(path) !== null && shown(path));
  // A path in another repository's .git (its pack, named whole) is that repository's history:
  // its raw bytes hold nothing a text check reads, so the repository is judged as git would print it.
  const repositories = paths.flatMap((path) => gitDirOwner(path) ?? []);
  if (repositories.some((repository) => scope.paths.historyCredential(repository) !== null))
    return null;
  // Bound by the name the call uses and where it leads: the cwd it runs in may be either.
  const places = [...worksIn, ...paths].flatMap((path) => [path, scope.realPath(path) ?? path]);
  // Each hidden file is hidden under every name the view binds its tree by (~/app -> ~/code/app).
  const aliases = worksIn.map((place) => ({ place, real: scope.realPath(place) ?? place }));
  const under = (path: string): string[] => [
    path,
    ...aliases
      .filter(({ place, real }) => place !== real && isUnder(path, real))
      .map(({ place, real }) => join(place, relative(real, path))),
  ];
  return {
    places: [...new Set(places)],
    masked: [
      ...[...new Set(credentials.flatMap(under))].map((path) => ({ path, kind: 'file' as const })),
      ...[...new Set(histories.flatMap(under))].map((path) => ({ path, kind: 'dir' as const })),
    ],
  };
}

/** The directory holding the `.git` a path lies in (`~/app` for `~/app/.git/objects/pack/x`). */
function gitDirOwner(path: string): string | null {
  const at = `${path}/`.indexOf('/.git/');
  return at < 0 ? null : path.slice(0, at) || '/';
}
