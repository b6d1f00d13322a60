// Every credential store a home can hold, planted for real and read from inside a real
// bubblewrap sandbox whose home is writable: none of them may show its content. The list is
// written here, independent of the sandbox's own list, so a store dropped from that list (or
// never added to it) shows up as a leak below.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { shellExec } from '../../../executors/shell-exec.ts';
import { makeContext } from '../make-context.ts';

const home = process.env.HOME ?? '/nonexistent';
const secret = 'PLANTED-SECRET-41c9';

/** Home-relative files that hold credentials in the wild (tool docs name each location). */
const STORES = [
  '.ssh/id_ed25519',
  '.gnupg/private-keys-v1.d/0A1B.key',
  '.aws/credentials',
  '.aws/config',
  '.azure/msal_token_cache.json',
  '.config/gcloud/application_default_credentials.json',
  '.kube/config',
  '.docker/config.json',
  '.netrc',
  '.git-credentials',
  '.config/gh/hosts.yml',
  '.config/hub',
  '.npmrc',
  '.pypirc',
  '.cargo/credentials.toml',
  '.cargo/credentials',
  '.terraform.d/credentials.tfrc.json',
  '.vault-token',
  '.password-store/bank.gpg',
  '.local/share/keyrings/login.keyring',
  '.mozilla/firefox/abc.default/logins.json',
  '.config/google-chrome/Default/Login Data',
  '.config/chromium/Default/Cookies',
  '.config/custode/credentials.env',
  '.local/share/custode/vaglio/2026-01.jsonl',
  '.local/state/custode/approvals.json',
];

beforeAll(async () => {
  for (const store of STORES) {
    await mkdir(dirname(join(home, store)), { recursive: true });
    await writeFile(join(home, store), `${secret} ${store}\n`);
  }
  // A neighbour that is not a secret stays readable: the masks are not a blanket over ~.
  await writeFile(join(home, 'notes.txt'), 'plain notes\n');
});

describe('a sandboxed command with the home writable', () => {
  it('reads none of the planted credential stores, and still reads a plain file', async () => {
    const ctx = await makeContext({ roots: { write: ['~'] } });
    const command = 'for f in "$@"; do cat -- "$HOME/$f" 2>/dev/null; done; cat ~/notes.txt';
    const result = await shellExec.run({ command, args: STORES }, ctx);
    expect(result.sandbox).toBe('bwrap');
    const leaked = STORES.filter((store) => result.stdout.includes(`${secret} ${store}`));
    expect(leaked).toEqual([]);
    expect(result.stdout).toBe('plain notes\n');
  });

  it('cannot find them by listing or searching the home either', async () => {
    const ctx = await makeContext({ roots: { write: ['~'] } });
    const result = await shellExec.run(
      { command: `grep -rl -- ${secret} ~ 2>/dev/null; true` },
      ctx,
    );
    expect(result.stdout).toBe('');
  });
});
