// Whether a path is a readable public key file right now: where it leads is a regular file named
// `*.pub`, small, holding only public key lines, and neither the path nor where it leads is in a
// protected place other than a family that keeps public halves (constitution/public-keys.ts) or
// in Custode's own dirs. Synchronous: it sits on the decision's path like readSmallText.
import { lstatSync, readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { isPublicKeyText, onlyPublicHalves } from '../../constitution/public-keys.ts';
import { globToRegExp } from '../glob-match.ts';
import { readSmallText } from './small-text.ts';

// A glob naming more files than this is not "my public keys": it keeps the family's rule.
const MAX_MATCHES = 32;

function isUnder(path: string, dir: string): boolean {
  return path === dir || path.startsWith(`${dir}/`);
}

/**
 * True when the absolute `path` reads public keys and nothing else; `ownDirs` stay protected. A
 * glob in its last segment (~/.ssh/*.pub) must match at least one file, and every file it
 * matches (dotfiles too, which bash would skip) must be a public key.
 */
export function isPublicKeyFile(path: string, ownDirs: readonly string[]): boolean {
  const slash = path.lastIndexOf('/');
  const dir = path.slice(0, slash);
  const last = path.slice(slash + 1);
  if (!/[*?[]/.test(last)) return isOnePublicKey(path, ownDirs);
  if (slash <= 0 || /[*?[{]/.test(dir)) return false;
  let names: string[];
  let matcher: RegExp;
  try {
    names = readdirSync(dir);
    matcher = globToRegExp(last);
  } catch {
    return false;
  }
  const matches = names.filter((name) => matcher.test(name));
  return (
    matches.length > 0 &&
    matches.length <= MAX_MATCHES &&
    matches.every((name) => isOnePublicKey(join(dir, name), ownDirs))
  );
}

function isOnePublicKey(path: string, ownDirs: readonly string[]): boolean {
  const plain = (p: string): boolean =>
    onlyPublicHalves(p) && !ownDirs.some((dir) => isUnder(p, dir));
  // The name first, then the disk: a private key's name (~/.ssh/id_rsa) answers without a look,
  // and a missing file without the exception realpath would throw.
  if (!plain(path)) return false;
  let real: string;
  try {
    if (lstatSync(path, { throwIfNoEntry: false }) === undefined) return false;
    real = realpathSync(path);
  } catch {
    return false;
  }
  if (!real.endsWith('.pub') || !plain(real)) return false;
  // Read where the link led (readSmallText opens only a regular file of bounded size).
  const text = readSmallText(real);
  return text !== null && isPublicKeyText(text);
}
