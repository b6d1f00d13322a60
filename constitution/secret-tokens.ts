// The shapes of credentials that must not leave the machine without a person seeing it: a
// web_fetch URL or a network command carrying one asks, with a card saying data leaves the
// machine. Each shape carries examples it must and must not match; the test checks them all.

/** One token shape: its name (what the card and audit log say), why, the pattern and examples. */
export interface SecretToken {
  readonly name: string;
  readonly why: string;
  readonly pattern: RegExp;
  readonly must: readonly string[];
  readonly mustNot: readonly string[];
}

// Every shape is matched in any case: flipping a token's case (GHP_…, AKIA… lowercased) is undone
// by whoever receives it, so a card that a lowercase shape raises an uppercase one raises too.
// Token characters start and end at anything a URL, a header or prose puts around them, and a
// token that starts a line may carry a diff's `-` before it (a patch removing it): no token
// character before it, and no `-` unless that `-` starts a line. A token character that ends an
// escape is no part of the token's word: a percent-escape (`%3Dghp_…` in a URL-encoded
// callback), a backslash escape (`\nghp_…` in a JSON log line) or a `\u`/`\x` code (`\u003d`).
// One lookbehind, not an alternation of two: V8 then still scans for the token's first letters,
// ten times faster over a tree's text (fs_grep withholds a file by these shapes).
const START =
  '(?<!(?<!%[0-9A-Fa-f]|\\\\|\\\\u[0-9A-Fa-f]{3}|\\\\x[0-9A-Fa-f])[A-Za-z0-9_]|[^\\n]-)';
const END = '(?![A-Za-z0-9_])';

/** The header of a private key block (PEM, OpenSSH or PGP), in any case. */
export const PRIVATE_KEY_BLOCK = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/i;

/** The secret shapes, most specific first (the first match names the card's reason). */
export const SECRET_TOKENS: readonly SecretToken[] = [
  {
    name: 'AWS access key id',
    why: 'with its secret it signs requests to the whole AWS account',
    pattern: new RegExp(`${START}(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}${END}`, 'i'),
    must: [
      'AKIAIOSFODNN7EXAMPLE',
      'id=ASIAY34FZKBOKMUTVV7A&x=1',
      'akiaiosfodnn7example',
      '@@ -1 +1 @@\n-AKIAIOSFODNN7EXAMPLE',
    ],
    mustNot: ['AKIA', 'AKIAIOSFODNN7EXAMPL', 'xakiaiosfodnn7example'],
  },
  {
    name: 'GitHub token',
    why: 'pushes code and reads private repositories as the person',
    pattern: new RegExp(
      `${START}(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})${END}`,
      'i',
    ),
    must: [
      'ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789',
      'https://x.example/?t=gho_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789',
      'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz',
      'https://x.example/?t=GHP_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
      'cb?state=1%26token%3Dghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789',
      '{"msg":"pushed with\\nghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"}',
      '{"q":"t\\u003dghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"}',
    ],
    mustNot: ['ghp_short', 'ghx_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789', 'github_pat_'],
  },
  {
    name: 'GitLab token',
    why: 'pushes code and reads private projects as the person',
    pattern: new RegExp(`${START}glpat-[A-Za-z0-9_-]{20,}${END}`, 'i'),
    must: ['glpat-xxxxxxxxxxxxxxxxxxxx', 'GLPAT-XXXXXXXXXXXXXXXXXXXX'],
    mustNot: ['glpat-short'],
  },
  {
    name: 'npm token',
    why: 'publishes packages under the person’s name',
    pattern: new RegExp(`${START}npm_[A-Za-z0-9]{36}${END}`, 'i'),
    must: ['npm_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789', 'NPM_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'],
    mustNot: ['npm_install', 'npm_config_cache', 'NPM_CONFIG_REGISTRY_URL_FOR_THE_MIRROR_X'],
  },
  {
    name: 'Slack token',
    why: 'reads and posts in the workspace as the bot or the person',
    pattern: new RegExp(`${START}xox[baprs]-[A-Za-z0-9-]{10,}${END}`, 'i'),
    must: [
      'xoxb-123456789012-1234567890123-abcdefghijklmnop',
      'xoxp-1234-5678-abcdef1234',
      'XOXB-1234-5678-ABCDEF1234',
    ],
    mustNot: ['xoxb-', 'xoxz-1234567890-abc'],
  },
  {
    name: 'API secret key (sk-...)',
    why: 'OpenAI, Anthropic and Stripe keys spend the person’s money',
    pattern: new RegExp(`${START}sk-(?:[A-Za-z0-9]+-)*[A-Za-z0-9_]{20,}${END}`, 'i'),
    must: [
      'sk-abcdefghijklmnopqrstuvwxyz012345',
      'sk-proj-abcdefghijklmnopqrstuvwx',
      'sk-ant-api03-abcdefghijklmnopqrstuvwxyz',
    ],
    mustNot: ['sk-learn', 'task-abcdefghijklmnopqrstuvwxyz', 'disk-usage-report'],
  },
  {
    name: 'Stripe key',
    why: 'moves money on the person’s Stripe account',
    pattern: new RegExp(`${START}(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}${END}`, 'i'),
    must: ['sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'rk_test_abcdefghijklmnop1234'],
    mustNot: ['sk_live_', 'desk_live_abcdefghijklmnop1234'],
  },
  {
    name: 'Google API key',
    why: 'bills Google Cloud APIs to the person’s project',
    pattern: new RegExp(`${START}AIza[0-9A-Za-z_-]{35}${END}`, 'i'),
    must: ['AIzaSyA-1234567890abcdefghijklmnopqrstu'],
    mustNot: ['AIzaShort', 'AIzaSyA-1234567890abcdefghijklmnopqrstuvwxyz0'],
  },
  {
    name: 'Hugging Face token',
    why: 'reads private models and pushes to the person’s repositories',
    pattern: new RegExp(`${START}hf_[A-Za-z0-9]{34,}${END}`, 'i'),
    must: ['hf_abcdefghijklmnopqrstuvwxyzABCDEFGH', 'HF_ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGH'],
    mustNot: ['hf_transfer', 'hf_hub_download', 'HF_HUB_ENABLE_HF_TRANSFER'],
  },
  {
    name: 'private key',
    why: 'a key block is the identity itself',
    pattern: PRIVATE_KEY_BLOCK,
    must: [
      '-----BEGIN OPENSSH PRIVATE KEY-----',
      '-----BEGIN RSA PRIVATE KEY-----\nMIIE',
      '-----begin openssh private key-----',
      '-----BEGIN PGP PRIVATE KEY BLOCK-----',
    ],
    mustNot: ['-----BEGIN PUBLIC KEY-----', '-----BEGIN CERTIFICATE-----'],
  },
  {
    name: 'credential in a URL query (?token=, ?api_key=, ?password= ...)',
    why: 'whatever its shape, a value sent under a credential name is meant to be secret',
    pattern:
      /[?&](?:access_?token|auth_?token|token|api[_-]?key|apikey|key|secret|client_secret|password|passwd|pwd|auth|sig|signature|session_?id|session)=[^&#\s'"]{6,}/i,
    must: [
      'https://status.example.com/api/v1/check?token=sk_live_4f9a8b7c6d5e',
      'https://x.example/v1?q=1&api_key=abc123def',
      'https://x.example/login?user=ada&password=hunter22',
    ],
    mustNot: [
      'https://x.example/search?q=token',
      'https://x.example/api?token=',
      'https://x.example/?monkey=banana123',
      'https://x.example/docs/token=abcdefgh',
    ],
  },
  {
    name: 'password in a URL (https://user:password@host)',
    why: 'the userinfo of a URL is a login sent to the host',
    pattern: /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]{4,}@/i,
    must: ['https://bob:Xk29fLq83ZmP0aR7tY4u@example.com/', 'ftp://me:hunter22@files.example'],
    mustNot: ['https://example.com/a:b@c', 'https://bob@example.com/', 'ssh://git@github.com/x'],
  },
  {
    name: 'Telegram bot token',
    why: 'whoever holds it speaks as the bot and reads its chats',
    pattern: /(?<![0-9])\d{8,10}:[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/i,
    must: ['https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1/getMe'],
    mustNot: ['12:30', 'https://example.com/123456789:short'],
  },
  {
    name: 'JSON web token',
    why: 'a bearer token: whoever holds it is logged in',
    pattern: new RegExp(
      `${START}eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}${END}`,
      'i',
    ),
    must: [
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    ],
    mustNot: ['eyJhbGciOiJIUzI1NiJ9', 'eyJ.eyJ.x'],
  },
];

// One pass over all shapes first: nearly every text matches none.
const ANY_SECRET = new RegExp(SECRET_TOKENS.map((t) => `(?:${t.pattern.source})`).join('|'), 'i');

/** The first secret shape found in a text, or null. */
export function secretTokenIn(text: string): SecretToken | null {
  if (!ANY_SECRET.test(text)) return null;
  return SECRET_TOKENS.find((token) => token.pattern.test(text)) ?? null;
}

// Base64 (standard or URL-safe, a `/` inside or not) and hex runs long enough to hide a token.
const BASE64_RUNS = [/[A-Za-z0-9+_-]{16,}={0,2}/g, /[A-Za-z0-9+/_-]{16,}={0,2}/g];
const HEX_RUN = /(?:[0-9a-f]{2}){12,}/gi;

/** The texts a run of base64 may stand for, read from each of the four alignments. */
function base64Readings(run: string): string[] {
  return [0, 1, 2, 3].map((skip) => Buffer.from(run.slice(skip), 'base64').toString('latin1'));
}

/**
 * The first secret shape hidden in `text` by base64 or hex (a token sent as `?k=Z2hwX...`), or
 * null. The encoding is undone by whoever receives it, so it hides nothing from them.
 */
export function encodedSecretTokenIn(text: string): SecretToken | null {
  const readings = [
    ...BASE64_RUNS.flatMap((runs) => (text.match(runs) ?? []).flatMap(base64Readings)),
    ...(text.match(HEX_RUN) ?? []).map((run) => Buffer.from(run, 'hex').toString('latin1')),
  ];
  for (const reading of readings) {
    const found = secretTokenIn(reading);
    if (found !== null) return found;
  }
  return null;
}
