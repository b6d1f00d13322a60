// Whether a path is a readable public key file right now: where it leads is a regular file named
// `*.pub`, small, holding only public key lines, and neither the path nor where it leads is in a
// protected place other than a family that keeps public halves (constitution/public-keys.ts) or
// in Custode's own dirs. Synchronous: it sits on the decision's path like readSmallText.
import { realpathSync } from 'node:fs';
import { isPublicKeyText, onlyPublicHalves } from '../../constitution/public-keys.ts';
import { readSmallText } from './small-text.ts';

function isUnder(path: string, dir: string): boolean {
  return path === dir || path.startsWith(`${dir}/`);
}

/** True when the absolute `path` reads a public key and nothing else; `ownDirs` stay protected. */
export function isPublicKeyFile(path: string, ownDirs: readonly string[]): boolean {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return false;
  }
  const plain = (p: string): boolean =>
    onlyPublicHalves(p) && !ownDirs.some((dir) => isUnder(p, dir));
  if (!real.endsWith('.pub') || !plain(path) || !plain(real)) return false;
  // Read where the link led (readSmallText opens only a regular file of bounded size).
  const text = readSmallText(real);
  return text !== null && isPublicKeyText(text);
}
