// A file that holds a credential its place does not protect (constitution/credential-files.ts):
// known by its name (a dotenv file, a key store, terraform state, a copied ssh key), a git config
// holding a login, or a private key block in its text. Reading one takes a card.
import { credentialFileByName, holdsPrivateKey } from '../../constitution/credential-files.ts';
import type { Protection } from '../../constitution/protected.ts';
import { storedCredentialProtection, type RepositoryReader } from './repository-exposure.ts';

const PRIVATE_KEY: Protection = {
  name: 'a private key block',
  why: 'a key pasted or renamed outside ~/.ssh is still the identity itself',
};

/** The credential a file holds by its name alone (no read: cheap enough for every entry of a walk). */
export function credentialByName(path: string, reader: RepositoryReader): Protection | null {
  const byName = credentialFileByName(path);
  if (byName !== null) return reader.isFile(path) ? { name: byName.name, why: byName.why } : null;
  // A git config is read only when its name says it is one.
  return storedCredentialProtection(path, reader);
}

/**
 * The credential the file `path` holds, by its name as written, by where its links lead
 * (`real`), or by its text; null for an ordinary file, a directory, or nothing there.
 */
export function credentialFileProtection(
  path: string,
  real: string,
  reader: RepositoryReader,
): Protection | null {
  if (!reader.isFile(real)) return null;
  const byName = credentialFileByName(path) ?? credentialFileByName(real);
  if (byName !== null) return { name: byName.name, why: byName.why };
  const gitConfig = storedCredentialProtection(real, reader);
  if (gitConfig !== null) return gitConfig;
  const text = reader.smallText(real);
  return text !== null && holdsPrivateKey(text) ? PRIVATE_KEY : null;
}
