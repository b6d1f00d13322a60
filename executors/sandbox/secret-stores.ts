// Credential stores under HOME that a sandboxed command must never read, even when HOME is
// a writable root. Paths are relative to HOME; each is masked only when it exists.

/** Home-relative paths of secret stores (keys, tokens, keyrings, browser profiles) and Custode's own state. */
export const secretStores: readonly string[] = [
  '.ssh', // private keys
  '.gnupg', // private keys
  '.aws', // cloud credentials
  '.azure',
  '.config/gcloud',
  '.kube', // cluster tokens
  '.docker/config.json', // registry tokens
  '.netrc', // plain-text passwords
  '.git-credentials',
  '.config/gh', // GitHub CLI token
  '.config/hub',
  '.npmrc', // registry tokens
  '.pypirc',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.terraform.d/credentials.tfrc.json',
  '.vault-token',
  '.password-store',
  '.local/share/keyrings',
  '.mozilla', // saved passwords and cookies
  '.config/google-chrome',
  '.config/chromium',
  '.config/custode', // our config: tokens and the operator's allowlists
  '.local/share/custode', // the audit log: a command must not rewrite its own record
  '.local/state/custode', // approvals and always-allow rules
];

/**
 * System files a sandboxed command must not read. Commands run as the daemon's user, and for
 * root (no capabilities, but still the owner) these would otherwise be readable.
 */
export const systemSecretStores: readonly string[] = [
  '/etc/shadow', // password hashes
  '/etc/shadow-',
  '/etc/gshadow',
  '/etc/gshadow-',
  '/etc/sudoers', // who may become root
  '/etc/sudoers.d',
  '/etc/security/opasswd', // old password hashes
];

/** Host private keys in /etc/ssh: they let anyone impersonate this machine. */
export const hostKeyDirectory = '/etc/ssh';
export const hostKeyName = /^ssh_host_.*_key$/;
