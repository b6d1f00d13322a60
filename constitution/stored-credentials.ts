// Credentials kept in a configuration file whose name the protected list cannot know as a
// secret: a git config's remote URL with a login in it (https://x-access-token:<token>@host),
// the authorization header actions/checkout leaves (http.<url>.extraheader), a token used as a
// URL's user name. Reading such a file, or a command that prints it (git remote -v, git config
// --list), shows the credential. Each shape carries examples it must and must not match.
import { secretTokenIn } from './secret-tokens.ts';

/** One shape of a stored credential: its name (what a card says), why, the pattern, examples. */
export interface StoredCredential {
  readonly name: string;
  readonly why: string;
  readonly pattern: RegExp;
  readonly must: readonly string[];
  readonly mustNot: readonly string[];
}

/** The shapes beyond the secret-shaped tokens (secret-tokens.ts), which count too. */
export const STORED_CREDENTIALS: readonly StoredCredential[] = [
  {
    name: 'a login in a URL (https://user:password@host)',
    why: 'whoever reads the URL can push, pull or log in as its owner',
    pattern: /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i,
    must: [
      'remote.origin.url=https://x-access-token:abc@github.com/o/r.git',
      'url = https://ada:hunter2@git.example.com/r',
      'url.https://:tok@host/.insteadof=https://host/',
    ],
    mustNot: ['url = git@github.com:o/r.git', 'url = ssh://git@github.com/o/r', 'a:b@c'],
  },
  {
    name: 'a token as the user name of a URL (https://<token>@host)',
    why: 'a long random user name is a token: GitHub, GitLab and Bitbucket accept it alone',
    pattern: /https?:\/\/[A-Za-z0-9_-]{20,}@/i,
    must: ['url = https://0123456789abcdef0123456789abcdef01234567@github.com/o/r'],
    mustNot: ['url = https://ada@git.example.com/r', 'url = https://github.com/o/r'],
  },
  {
    name: 'an authorization header (http.extraheader)',
    why: 'actions/checkout and CI runners keep a bearer or basic credential there',
    pattern: /extraheader\s*=\s*["']?\s*(?:proxy-)?authorization\s*:/i,
    must: [
      'http.https://github.com/.extraheader=AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46YWJj',
      '\textraheader = "Authorization: Bearer abc"',
    ],
    mustNot: ['http.extraheader=X-Trace: 1', 'core.editor=vim'],
  },
];

// The files git reads its configuration from: a repository's config (and a worktree's), the
// global ~/.gitconfig and $XDG_CONFIG_HOME/git/config.
export const GIT_CONFIG_NAMES: ReadonlySet<string> = new Set([
  'config',
  'config.worktree',
  '.gitconfig',
]);

/** The first credential a configuration text holds (a stored shape or a secret token), or null. */
export function storedCredentialIn(text: string): { readonly name: string } | null {
  return STORED_CREDENTIALS.find((shape) => shape.pattern.test(text)) ?? secretTokenIn(text);
}
