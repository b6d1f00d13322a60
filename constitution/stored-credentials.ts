// Credentials kept in a configuration file whose name the protected list cannot know as a
// secret: a git config's remote URL with a login in it (https://x-access-token:<token>@host),
// the authorization header actions/checkout leaves (http.<url>.extraheader), a token used as a
// URL's user name. Reading such a file, or a command that prints it (git remote -v, git config
// --list), shows the credential. Each shape carries examples it must and must not match.
import { binarySecretStoreIn } from './binary-secret-stores.ts';
import { SECRET_TOKENS, secretTokenIn } from './secret-tokens.ts';

/** One shape of a stored credential: its name (what a card says), why, the pattern, examples. */
export interface StoredCredential {
  readonly name: string;
  readonly why: string;
  readonly pattern: RegExp;
  readonly must: readonly string[];
  readonly mustNot: readonly string[];
}

/**
 * What may stand before a line of a file where a command prints it: a diff's mark (`+`, `-`, `<`,
 * `>`, `!`) or a search hit's place (`settings.py:1:`, `HEAD~1:conf/msmtprc:2:`). A shape
 * anchored at a line's start accepts it, so `git log -p` and `git grep` show what `cat` shows.
 */
const LINE_LEAD = String.raw`(?:[-+<>!]|(?:[^\s:]*:)+)?`;

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
  {
    name: 'a netrc login (machine … password …)',
    why: 'curl, git, ftp and pip log in with it: a copy of ~/.netrc is still the login',
    pattern: /\bmachine[ \t]+\S+[ \t\n]+(?:login[ \t]+\S+[ \t\n]+)?password[ \t]+\S+/,
    must: ['machine api.example.com login ada password hunter22', 'machine x\n  password y'],
    mustNot: ['the machine password is in the vault', 'machine x login y'],
  },
  {
    name: 'a password line of a mail or login config (password SECRET)',
    why: 'msmtp, fetchmail, mbsync and netrc keep a login this way',
    pattern: new RegExp(
      String.raw`^${LINE_LEAD}[ \t]*(?:pass|password|passwd)[ \t]+["']?[^\s"']{4,}["']?[ \t]*$`,
      'm',
    ),
    must: [
      'account x\nuser ada\npassword hunter22\n',
      '  passwd "s3cr3t-v"',
      '-password hunter22',
      'HEAD~1:conf/msmtprc:2:password hunter22',
    ],
    mustNot: ['Password reset emails go out daily', 'password', 'passwordeval gpg -d x'],
  },
  {
    name: 'an AWS secret access key (aws_secret_access_key = …)',
    why: 'with the key id it signs requests to the whole AWS account',
    pattern: /aws_secret_access_key[ \t]*[=:][ \t]*["']?[A-Za-z0-9/+=_-]{16,}/i,
    must: ['aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
    mustNot: ['aws_secret_access_key =', 'set aws_secret_access_key in your profile'],
  },
  {
    name: 'a credential-named setting with a literal value (password: …, SECRET_KEY = "…")',
    why: 'a project config keeps the password, key or token it runs with in any syntax: YAML, JSON, INI, properties, Python',
    // The name ends in a credential word (POSTGRES_PASSWORD, spring.datasource.password,
    // "auth"; not the shell's own PWD=/dir, the working directory `env` prints), followed by `=` or `:`, or quoted and followed by a comma, as a call sets it
    // (`define('DB_PASSWORD', '…')` in wp-config.php); the value is written out: 10 or more characters with a digit, not a reference to
    // a value kept elsewhere (${DB_PASSWORD}, os.environ[...], {{ .Values.x }}, <your key>).
    pattern:
      /(?:^|[\s{,;"'(:+<>!|-])["']?(?!(?:old)?pwd["']?[ \t]*[=:][ \t]*["']?\/)(?:[A-Za-z0-9]+[_.-])*(?:pass(?:word|wd)?|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|secret[_-]?key|client[_-]?secret|auth|credentials?)(?:["']?[ \t]*[=:]|["'][ \t]*,)[ \t]*["']?(?=[^\s"'#,;]*\d)(?![^\s"'#,;]*[${}()[\]<>%])[^\s"'#,;]{10,}/im,
    must: [
      'services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: Pg4ssw0rdXyz',
      'SECRET_KEY = "dj4ngo-k3y-9x8y7z"',
      'spring.datasource.password=Spr1ngDbPw77',
      '    token: kube70kenAbCdEf123',
      '{"sqltools.connections":[{"password":"V5codeDbPw1"}]}',
      '{"auths":{"x":{"auth":"dXNlcjpwYXNzd29yZDEyMw=="}}}',
      'aws_secret_key = "wJalrXUtnFEMI7MDENG8bPxRfiCY"',
      '+SECRET_KEY = "dj4ngo-k3y-9x8y7z"',
      'settings.py:1:SECRET_KEY = "dj4ngo-k3y-9x8y7z"',
      'DB_PWD=/s3cr3t/pw9x',
      "define('DB_PASSWORD', 'Wp4ssw0rdXyz');",
      'os.environ.setdefault("SECRET_KEY", "dj4ngo-k3y-9x8y7z")',
    ],
    mustNot: [
      'POSTGRES_PASSWORD: ${DB_PASSWORD}',
      'SECRET_KEY = os.environ["SECRET_KEY"]',
      'password: "{{ .Values.dbPassword }}"',
      'api_key: <your key here>',
      'password: postgres',
      'PASSWORD_FILE = "/run/secrets/db1"',
      'max_token = 4096',
      'token_url: https://example.com/oauth2',
      'auth: true',
      'author: Ada Lovelace 1815',
      'bypass: cache-2026-11',
      'const password = getPassword(1)',
      'API_KEY=abcd1234',
      'PWD=/home/ada/projects/app2',
      'pwd: /srv/www/site9',
      'send(token, someVariable12345)',
      "define('DB_PASSWORD', getenv('DB_PASSWORD_2'));",
    ],
  },
];

/**
 * An env file by its name (`.env`, `.env.local`, `prod.env`), not a template of one
 * (`.env.example`, `.env.sample`, `.env.template`, `.env.dist`, `.env.defaults`).
 */
const ENV_FILE =
  /^(?:\.env(?:\.(?!(?:example|sample|template|dist|defaults)$)[\w.-]+)?|[\w.-]+\.env)$/i;

/**
 * A credential-named variable given a value in an env file (API_KEY=…, DB_PASSWORD=…); the
 * shell's PWD=/dir and OLDPWD=/dir (what `env` prints) name a directory, not a password.
 */
export const ENV_CREDENTIAL: StoredCredential = {
  name: 'a credential-named variable in an env file (API_KEY=…)',
  why: 'an env file is where a project keeps the keys and passwords it runs with',
  pattern:
    /^[ \t]*(?:export[ \t]+)?(?!(?:OLD)?PWD[ \t]*=[ \t]*["']?\/)(?:[A-Za-z0-9]+_)*(?:KEY|APIKEY|SECRET|TOKEN|PASSWORD|PASSWD|PASS|PWD|CREDENTIALS?|AUTH|DSN)(?:_[A-Za-z0-9]+)*[ \t]*=[ \t]*["']?[^\s"'#]{4,}/im,
  must: [
    'API_KEY=abcd1234',
    'export DB_PASSWORD="hunter22"',
    '# db\nSTRIPE_SECRET=x9y8z7w6',
    'PWD=hunter22x',
    'DB_PWD=/pw/xyz',
  ],
  mustNot: [
    'API_KEY=',
    'DEBUG=true',
    '# API_KEY=abcd1234',
    'API_KEY="" # set me',
    'AUTHOR_NAME=Ada',
    'BYPASS_CACHE=true',
    'MONKEY_MODE=on',
    'PWD=/home/ada/projects/app2',
    'OLDPWD=/home/ada/src/web3',
  ],
};

// Names of files that often hold a key, token or password: env files, key and keystore files,
// ssh's id_* keys, and names that say so.
/**
 * A password, token or key kept as a plain setting (`password: …`, `"apiKey": "…"`,
 * `rpc-password = …`) in a tool's own config in the home (a dot-directory or dotfile): such a
 * config is a credential store like ~/.netrc, whatever the value looks like. A value that only
 * refers to one (`${DB_PASSWORD}`, `{{ secrets.x }}`, `!vault`, a boolean) is none. In a
 * project the same line is often a fixture, so it counts only in the home's tool configs.
 */
export const TOOL_CONFIG_CREDENTIAL: StoredCredential = {
  name: "a password, token or key kept as a setting in a tool's config (password: …)",
  why: "a tool's config in the home keeps its login there, as ~/.netrc does",
  pattern:
    /(?:^[ \t]*(?:-[ \t]+)?|[{,][ \t]*)["']?[\w.\\-]*?(?:password|passwd|passphrase|secret|token|api[_-]?key|access[_-]?key|private[_-]?key)["']?[ \t]*[:=][ \t]*["']?(?![$!<%({]|(?:true|false|null|none)\b)[^\s"'#,;]{4,}/im,
  must: [
    'auth:\n  password: Lab-Cloud-2291',
    '- name: corp\n  password: c0rpHelm!x',
    '  "rpc-password": "tr4nsmit-pw",',
    'api_key: q8Zr2mVt5kLp',
    '{"models":[{"title":"x","apiKey":"c0ntinue-k3y-value"}]}',
    'password = wg3t-s3cret',
    '0\\password=n3xtcl0ud-pw',
    'client_secret = abcd1234efgh',
  ],
  mustNot: [
    'password: ${DB_PASSWORD}',
    'token: "{{ secrets.DEPLOY_TOKEN }}"',
    'password: !vault |',
    'use_token: true',
    'token_type: bearer',
    'max_tokens: 4096',
    'password_file: /run/secrets/pw',
    'author: Ada Lovelace',
    'password:',
  ],
};

const CREDENTIAL_NAME =
  /^(?:id_[a-z0-9_]+|.*\.(?:pem|key|p12|pfx|ppk|jks|keystore|kdbx|asc|gpg|tfvars)|.*(?:secret|credential|token|passw|apikey|api_key|auth).*)$/i;

/**
 * A name that says its file may hold a credential (an env file, a key or keystore, `secrets.json`):
 * inline code that names one keeps its card (workspace/inline-code.ts), as reading it would.
 */
export function mayHoldCredential(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return ENV_FILE.test(name) || (CREDENTIAL_NAME.test(name) && !name.endsWith('.pub'));
}

/**
 * The first credential a file holds, judged by its name and text: a stored shape or a secret
 * token anywhere, or encoded in a base64 or hex run, and in an env file a credential-named variable with a value. A file with more
 * than one name (`multiNamed`, a hard link) may be an env file under its other name: it is
 * judged as one. Null when none.
 */
export function credentialInFile(
  name: string,
  text: string,
  multiNamed = false,
  toolConfig = false,
): { readonly name: string } | null {
  const stored = storedCredentialIn(text);
  if (stored !== null) return stored;
  // Encoded (base64, hex, wrapped over lines as `base64` and `xxd -p` wrap it): a reader that
  // prints it line by line (`head -1`, `grep -n .`) shows pieces no output check can decode.
  const encoded = encodedCredentialIn(text);
  if (encoded !== null) return encoded;
  if (toolConfig && TOOL_CONFIG_CREDENTIAL.pattern.test(text)) return TOOL_CONFIG_CREDENTIAL;
  if (!(multiNamed || ENV_FILE.test(name))) return null;
  return ENV_CREDENTIAL.pattern.test(text) ? ENV_CREDENTIAL : null;
}

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

// A private key block from its header to its footer, or to the end of a text cut short.
const KEY_BLOCK =
  /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|$)/gi;

const EVERY_SHAPE: readonly { readonly name: string; readonly pattern: RegExp }[] = [
  ...STORED_CREDENTIALS,
  ...SECRET_TOKENS,
];

// A run of base64 (standard or URL-safe, wrapped or not) or of hex (bytes spaced or not, one
// line or many) long enough to hold a credential: the encodings every language and coreutils
// have at hand (base64, xxd, od, .hex()), which turn a key into text no shape matches.
export const BASE64_RUN =
  /[A-Za-z0-9+/_-]{16,}={0,2}(?:[ \t]*\r?\n[ \t]*[A-Za-z0-9+/_-]{4,}={0,2})*/g;
export const HEX_RUN = /\b[0-9a-f]{2}(?:\s{0,2}[0-9a-f]{2}){15,}\b/gi;

/** How many encodings deep a run is decoded (base64 of base64 of a key, and one more). */
const DECODE_DEPTH = 3;

/** True when `text`, or a run in it decoded from base64 or hex, holds a credential. */
function holdsCredential(text: string, depth: number): boolean {
  if (new RegExp(KEY_BLOCK.source, 'i').test(text) || storedCredentialIn(text) !== null)
    return true;
  // Bytes decoded from a run: a binary store printed as hex or base64 (`xxd`, `base64`).
  if (depth < DECODE_DEPTH && binarySecretStoreIn(text) !== null) return true;
  return depth > 0 && encodedRuns(text).some((run) => decodedHoldsCredential(run, depth));
}

/** The base64 and hex runs in `text`. */
function encodedRuns(text: string): string[] {
  return [...(text.match(BASE64_RUN) ?? []), ...(text.match(HEX_RUN) ?? [])];
}

/** True when a run decoded as base64 or as hex holds a credential (node's base64 takes both alphabets). */
function decodedHoldsCredential(run: string, depth: number): boolean {
  const compact = run.replace(/\s/g, '');
  const decodings = [Buffer.from(compact, 'base64')];
  if (/^(?:[0-9a-f]{2})+$/i.test(compact)) decodings.push(Buffer.from(compact, 'hex'));
  return decodings.some((bytes) => holdsCredential(bytes.toString('latin1'), depth - 1));
}

const ENCODED_CREDENTIAL = { name: 'an encoded credential (base64 or hex)' };

// The shortest run a credential encodes to (a 16-character secret is 24 characters of base64),
// which leaves out the long names of code (`lateBindIndexSignature`).
const SHORTEST_ENCODED = 24;

/** True when a run decoded as base64 or as hex holds a credential's text shape, `depth` deep. */
function decodesToCredential(run: string, depth: number): boolean {
  const compact = run.replace(/\s/g, '');
  if (compact.length < SHORTEST_ENCODED) return false;
  const decodings = [Buffer.from(compact, 'base64')];
  if (/^(?:[0-9a-f]{2})+$/i.test(compact)) decodings.push(Buffer.from(compact, 'hex'));
  return decodings.some((bytes) => {
    const text = bytes.toString('latin1');
    if (new RegExp(KEY_BLOCK.source, 'i').test(text) || storedCredentialIn(text) !== null)
      return true;
    return depth > 1 && encodedRuns(text).some((inner) => decodesToCredential(inner, depth - 1));
  });
}

/**
 * A credential a text keeps encoded: a base64 or hex run that decodes (up to three deep) to a key
 * or a token, as a kubeconfig keeps its client key (`client-key-data: LS0tLS1CRUdJTi…`). The
 * output check cuts such a run from what a call prints; a line can print it reversed. Only text
 * shapes count here: a few bytes of a binary store's signature turn up in decoded names of code.
 */
export function encodedCredentialIn(text: string): { readonly name: string } | null {
  return encodedRuns(text).some((run) => decodesToCredential(run, DECODE_DEPTH))
    ? ENCODED_CREDENTIAL
    : null;
}

/**
 * Any stored shape or secret token, in one pattern (line anchors at each line, every letter
 * either case): what a search that walks a tree withholds a file for.
 */
export const ANY_CREDENTIAL = new RegExp(
  EVERY_SHAPE.map((shape) => `(?:${shape.pattern.source})`).join('|'),
  'im',
);

/**
 * The text with every credential it holds replaced by `[credential removed: <shape>]`: what a
 * call without a card prints reaches the model without a key, token or login, whatever read it,
 * and an encoded run that decodes to one (base64 or hex, up to three deep) goes whole.
 */
export function withoutCredentials(text: string): string {
  let out = text.replace(KEY_BLOCK, '[credential removed: private key]');
  for (const shape of EVERY_SHAPE) {
    const global = new RegExp(shape.pattern.source, `${shape.pattern.flags.replace('g', '')}g`);
    out = out.replace(global, `[credential removed: ${shape.name}]`);
  }
  const encoded = (run: string): string =>
    decodedHoldsCredential(run, DECODE_DEPTH) ? '[credential removed: encoded credential]' : run;
  return out.replace(HEX_RUN, encoded).replace(BASE64_RUN, encoded);
}
