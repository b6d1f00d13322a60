// A file that holds a credential its place does not protect: known by its name
// (constitution/credential-files.ts: a dotenv file, a key store, terraform state, a copied ssh
// key), or by its text (constitution/stored-credentials.ts: a git config with a login, a key
// block or secret-shaped token in any small file, an env file's API_KEY=…). Reading one takes a
// card; a walk leaves it out or asks.
import { credentialFileByName } from '../../constitution/credential-files.ts';
import type { Protection } from '../../constitution/protected.ts';
import { binarySecretStoreIn } from '../../constitution/binary-secret-stores.ts';
import { storedCredentialIn } from '../../constitution/stored-credentials.ts';
import {
  credentialProtection,
  credentialTextProtection,
  type RepositoryReader,
} from './repository-exposure.ts';

/**
 * Most text one tree walk reads at decision time. A line may print what a walk read in any
 * encoding (`grep -rh . notes | rev`, `grep -o .`, `od -c`), which no output filter can see
 * through: so a walk reads the text of every file below, whatever its name, and a tree with
 * more text than this is not read whole without a card.
 */
export const TREE_TEXT_LIMIT = 16 * 1024 * 1024;

/** The text a walk may still read: one per walk, spent file by file. */
export interface TextBudget {
  remaining: number;
}

export function treeTextBudget(): TextBudget {
  return { remaining: TREE_TEXT_LIMIT };
}

export const TOO_MUCH_TEXT: Protection = {
  name: `more text than a decision reads (${String(TREE_TEXT_LIMIT / 1024 / 1024)} MiB)`,
  why: 'a credential under any name could be in it, and a line can print it in a form no filter recognises',
};

/**
 * The credential a file met by a walk holds: by its name (a link's, and the name it leads to,
 * `real`), and by its text whatever its name, within the walk's `budget` (past it, the walk
 * asks). Null for a directory or nothing there.
 */
export function credentialInWalk(
  path: string,
  real: string,
  reader: RepositoryReader,
  budget: TextBudget,
  toolConfig = false,
): Protection | null {
  if (!reader.isFile(real)) return null;
  const byName = credentialFileByName(path) ?? credentialFileByName(real);
  if (byName !== null) return { name: byName.name, why: byName.why };
  const text = reader.textUpTo(real, budget.remaining);
  if (text === 'too-large') return TOO_MUCH_TEXT;
  if (text === null) return null;
  budget.remaining -= text.length;
  return credentialTextProtection(real, text, reader.multiNamed(real), toolConfig);
}

/** How a caller uses a file's text: `anyForm`, it may print it in a form no filter recognises. */
export interface TextUse {
  readonly anyForm?: boolean;
}

/**
 * The credential the file `path` holds, by its name as written, by where its links lead
 * (`real`), or by its text; null for an ordinary file, a directory, or nothing there.
 */
export function credentialFileProtection(
  path: string,
  real: string,
  reader: RepositoryReader,
  use: { readonly toolConfig: boolean } & TextUse,
): Protection | null {
  if (!reader.isFile(real)) return null;
  const byName = credentialFileByName(path) ?? credentialFileByName(real);
  if (byName !== null) return { name: byName.name, why: byName.why };
  // Read as far as a walk reads: a token at the end of a large log is still in it. Past that,
  // what a call without a card shows is cut at run time (executors/shown-text.ts), which sees
  // only a credential's shape: a caller that may print the text in another form (`tail -c 300
  // big.log | rev`) reads such a file with a card, as a walk does a tree with that much text.
  const text = reader.textUpTo(real, TREE_TEXT_LIMIT);
  if (text === 'too-large') return use.anyForm === true ? TOO_MUCH_TEXT : null;
  if (text === null) return null;
  return credentialTextProtection(real, text, reader.multiNamed(real), use.toolConfig);
}

/**
 * The credential a file version the repository in `dir` stores holds (a key block, a token, a
 * stored login, a binary store), which `git log -p`, `git show` or `git grep REV` print, or a
 * tracked file's uncommitted edit holds (what `git diff` and `git grep` print of the work tree,
 * judged as a shell read of that file: a file too large to read whole counts); null when none,
 * outside a repository, or when its history is more text than a decision reads (the caller
 * leaves that to others, as a tree too large to walk).
 */
export function historyCredential(dir: string, reader: RepositoryReader): Protection | null {
  const text = reader.storedText(dir, TREE_TEXT_LIMIT);
  const edited = reader.editedFiles(dir);
  if (text === null || edited === null)
    return {
      name: 'a repository git could not read in time',
      why: 'what its history holds is unknown',
    };
  if (text === 'none') return null;
  const credential =
    text === 'too-large' ? null : (binarySecretStoreIn(text) ?? storedCredentialIn(text));
  if (credential !== null) return credentialProtection(credential.name);
  if (edited === 'none') return null;
  for (const path of edited) {
    const protection = credentialFileProtection(path, path, reader, {
      toolConfig: false,
      anyForm: true,
    });
    if (protection !== null) return protection;
  }
  return null;
}
