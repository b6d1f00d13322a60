// A file that holds a credential its place does not protect: known by its name
// (constitution/credential-files.ts: a dotenv file, a key store, terraform state, a copied ssh
// key), or by its text (constitution/stored-credentials.ts: a git config with a login, a key
// block or secret-shaped token in any small file, an env file's API_KEY=…). Reading one takes a
// card; a walk leaves it out or asks.
import { basename } from 'node:path';
import { credentialFileByName } from '../../constitution/credential-files.ts';
import type { Protection } from '../../constitution/protected.ts';
import { GIT_CONFIG_NAMES, mayHoldCredential } from '../../constitution/stored-credentials.ts';
import { storedCredentialProtection, type RepositoryReader } from './repository-exposure.ts';

/**
 * The credential a file holds, for a walk: by its name, and by its text only where its name
 * hints at one (a git config, `.env*`, `*.pem`, `*token*` …): reading every file of a tree at
 * decision time would cost seconds.
 */
export function credentialByName(path: string, reader: RepositoryReader): Protection | null {
  const byName = credentialFileByName(path);
  if (byName !== null) return reader.isFile(path) ? { name: byName.name, why: byName.why } : null;
  return GIT_CONFIG_NAMES.has(basename(path)) || mayHoldCredential(path)
    ? storedCredentialProtection(path, reader)
    : null;
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
  return storedCredentialProtection(real, reader);
}
