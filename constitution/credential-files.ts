// Files that hold a credential wherever they are, which the protected list cannot name by place:
// a project's dotenv file, a password or key store file, terraform state, an ssh private key
// copied out of ~/.ssh, and any file whose text holds a private key block. Reading one is not
// forbidden (a person may mean it), but it takes a card; a search that walks a tree leaves them
// out. Each name carries examples it must and must not match.

import type { StoredCredential } from './stored-credentials.ts';

/**
 * One kind of credential file, known by its name: the same shape as a credential known by its
 * text, its pattern and examples tested against the file's own name (the last path segment).
 */
export type CredentialFile = StoredCredential;

export const CREDENTIAL_FILES: readonly CredentialFile[] = [
  {
    name: 'a dotenv file (.env, .env.local ...)',
    why: 'a project keeps its database passwords and API keys there, outside git',
    // The templates a project commits for others to copy hold placeholders, not secrets.
    pattern:
      /^(?:\.env(?:rc)?|\.env\.(?!(?:example|sample|template|dist|defaults?|schema)$)[^/]+|[^/]+\.env)$/i,
    must: ['.env', '.env.local', '.env.production', '.envrc', 'secrets.env', 'prod.env'],
    mustNot: ['.env.example', '.env.sample', '.env.template', 'env.ts', 'environment.md', '.envoy'],
  },
  {
    name: 'a password or key store file (KeePass, PKCS#12, Java keystore)',
    why: 'the whole store opens with one password, and its file is what an attacker takes',
    pattern: /\.(?:kdbx|kdb|p12|pfx|jks|keystore|bcfks)$/i,
    must: ['Passwords.kdbx', 'cert.p12', 'client.pfx', 'release.keystore', 'server.jks'],
    mustNot: ['notes.kdbx.md', 'keystore.ts', 'p12.txt'],
  },
  {
    name: 'terraform state (*.tfstate)',
    why: 'terraform writes every secret of the infrastructure it manages into its state in clear',
    pattern: /\.tfstate(?:\.backup)?$/i,
    must: ['terraform.tfstate', 'terraform.tfstate.backup', 'prod.tfstate'],
    mustNot: ['tfstate.md', 'main.tf'],
  },
  {
    name: 'an ssh private key file (id_rsa, id_ed25519 ...)',
    why: 'the key logs in wherever its public half is authorized, copied or not',
    pattern: /^id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?$/i,
    must: ['id_rsa', 'id_ed25519', 'id_ecdsa_sk'],
    mustNot: ['id_rsa.pub', 'id_ed25519.pub', 'id_rsa.md'],
  },
  {
    name: 'a password file (vault_pass, passwords.txt)',
    why: 'a password kept alone in a file is one plain word: only its name says what it is',
    // `pass` as a whole word of the name, not inside one (compass, bypass), nor /etc/passwd.
    pattern: /(?:^\.?|[._-])(?:pass|password|passphrase)s?(?:\.txt)?$/i,
    must: ['vault_pass', '.vault_pass.txt', 'vault-password', 'passwords.txt', 'gpg.passphrase'],
    mustNot: ['passwd', 'compass.txt', 'bypass', 'password_reset.py', 'passwords.md', 'pass.ts'],
  },
  {
    name: 'an htpasswd file',
    why: 'its password hashes are cracked offline',
    pattern: /^\.htpasswd$/i,
    must: ['.htpasswd'],
    mustNot: ['htpasswd.md'],
  },
];

/** The kind of credential file `path` is by its name, or null. */
export function credentialFileByName(path: string): CredentialFile | null {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return CREDENTIAL_FILES.find((file) => file.pattern.test(name)) ?? null;
}
