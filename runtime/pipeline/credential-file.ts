// A file that holds a credential its place does not protect: known by its name
// (constitution/credential-files.ts: a dotenv file, a key store, terraform state, a copied ssh
// key), or by its text (constitution/stored-credentials.ts: a git config with a login, a key
// block or secret-shaped token in any small file, an env file's API_KEY=…). Reading one takes a
// card; a walk leaves it out or asks.
import { credentialFileByName } from '../../constitution/credential-files.ts';
import type { Protection } from '../../constitution/protected.ts';
import { binarySecretStoreIn } from '../../constitution/binary-secret-stores.ts';
import { storedCredentialIn } from '../../constitution/stored-credentials.ts';
import type { Staging } from './workspace/spec.ts';
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

/** How git uses a repository's text: `workTree`, it prints uncommitted edits too (unset: it may). */
export interface HistoryUse extends TextUse {
  readonly workTree?: boolean;
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
 * The credential a file version or message the repository in `dir` stores holds (a key block, a
 * token, a stored login, a binary store), which `git log -p`, `git show` or `git grep REV` print,
 * or a tracked file's uncommitted edit holds (what `git diff` and `git grep` print of the work
 * tree, judged as a shell read of that file: a file too large to read whole counts); null when
 * none or outside a repository. A history with more text than a decision reads is unknown: it
 * counts for a caller that may print it in a form no filter recognises (`anyForm`); another
 * (a line whose filters keep each line whole) leaves it to the output check.
 */
export function historyCredential(
  dir: string,
  reader: RepositoryReader,
  use: HistoryUse = {},
): Protection | null {
  const text = reader.storedText(dir, TREE_TEXT_LIMIT);
  // `git diff --cached` and `git log -p` print no uncommitted edit.
  const edited = use.workTree === false ? 'none' : reader.editedFiles(dir);
  if (text === null || edited === null) return UNREAD_REPOSITORY;
  if (text === 'none') return null;
  const credential = storedTextCredential(text, use);
  if (credential !== null) return credential;
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

/**
 * The credential a commit or tag message the repository in `dir` holds (a token pasted into a
 * commit message), which `git log`, `git log --oneline` and `git branch -v` print; null when none
 * or outside a repository. More text than a decision reads counts as historyCredential says.
 */
export function messageCredential(
  dir: string,
  reader: RepositoryReader,
  use: TextUse = {},
): Protection | null {
  const text = reader.messageText(dir, TREE_TEXT_LIMIT);
  if (text === null) return UNREAD_REPOSITORY;
  return text === 'none' ? null : storedTextCredential(text, use);
}

/**
 * The credential a file that git would take into the index or a commit holds (`git add -A` of an
 * unignored `.env`, `git commit -a` of a tracked file a token was pasted into), by its name or
 * its text; the text read is one walk's at most. Null when none or outside a repository.
 */
export function stagedCredential(
  dir: string,
  stagings: readonly Staging[],
  reader: RepositoryReader,
): Protection | null {
  const budget = treeTextBudget();
  for (const { pathspecs, untracked } of stagings) {
    const files = reader.stagedFiles(dir, pathspecs, untracked);
    if (files === null) return UNREAD_REPOSITORY;
    if (files === 'none') continue;
    for (const file of files) {
      const protection = credentialInWalk(file, file, reader, budget);
      if (protection !== null) return protection;
    }
  }
  return null;
}

const UNREAD_REPOSITORY: Protection = {
  name: 'a repository git could not read in time',
  why: 'what its history holds is unknown',
};

function storedTextCredential(text: string, use: TextUse): Protection | null {
  if (text === 'too-large') return use.anyForm === true ? TOO_MUCH_TEXT : null;
  const credential = binarySecretStoreIn(text) ?? storedCredentialIn(text);
  return credential === null ? null : credentialProtection(credential.name);
}
