// The forbidden families added after the first ones (logins of other tools, wallets, histories,
// credential-named files, Custode's own state), pinned by paths a person has, written here and
// not taken from the constitution's samples: each family removed together with its samples
// changes a decision below (it did not before this file). The home is not under /home.
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../../runtime/shell/parse.ts';
import { guardCall } from '../../runtime/vaglio/guard.ts';
import { guardShell, reasonOf } from './guard-helpers.ts';

const home = '/data/ada';

beforeAll(async () => {
  await initShellParser();
});

/** Each family by the words its reason must contain, with real-world paths in it. */
const FAMILIES: readonly (readonly [string, readonly string[]])[] = [
  [
    'more stored logins and histories',
    [
      '~/.pgpass',
      '~/.my.cnf',
      '~/.thunderbird/k2x9.default-release/key4.db',
      '~/.config/rclone/rclone.conf',
      '~/.config/op/config',
      '~/.config/Slack/Local Storage/leveldb/000003.log',
      '~/.config/discord/Cookies',
      '~/.config/Signal/sql/db.sqlite',
      '~/.zsh_history',
      '~/.psql_history',
      '~/.mysql_history',
      '~/.node_repl_history',
      '~/.sqlite_history',
      '~/.rediscli_history',
      '~/.histfile',
      '~/.local/share/fish/fish_history',
    ],
  ],
  [
    "other agents' logins",
    [
      '~/.claude/.credentials.json',
      '~/.codex/auth.json',
      '~/.config/github-copilot/apps.json',
      '~/.gemini/google_accounts.json',
      '~/.wakatime.cfg',
    ],
  ],
  [
    'cloud and deploy CLIs',
    [
      '~/.oci/oci_api_key.pem',
      '~/.config/doctl/config.yaml',
      '~/.config/hcloud/cli.toml',
      '~/.config/heroku/config.json',
      '~/.config/netlify/config.json',
      '~/.config/stripe/config.toml',
      '~/.config/ngrok/ngrok.yml',
      '~/.fly/config.yml',
      '~/.local/share/com.vercel.cli/auth.json',
      '~/.supabase/access-token',
      '~/.wrangler/config/default.toml',
      '~/.config/configstore/firebase-tools.json',
      '~/.ngrok2/ngrok.yml',
      '~/.s3cfg',
      '~/.boto',
      '~/.talos/config',
      '~/.minikube/profiles/dev/client.key',
    ],
  ],
  [
    'package registry logins',
    [
      '~/.m2/settings.xml',
      '~/.m2/settings-security.xml',
      '~/.gradle/gradle.properties',
      '~/.gem/credentials',
      '~/.pip/pip.conf',
      '~/.config/pip/pip.conf',
      '~/.config/composer/auth.json',
      '~/.composer/auth.json',
      '~/.yarnrc.yml',
      '~/.config/git/credentials',
    ],
  ],
  [
    'encryption keys and wallets',
    [
      '~/.config/age/key.txt',
      '~/.config/sops/age/keys.txt',
      '~/.config/solana/id.json',
      '~/.ethereum/keystore/UTC--2024-01-01T00-00-00Z--abc',
      '~/.bitcoin/wallets/main/wallet.dat',
      '~/.electrum/wallets/default_wallet',
    ],
  ],
  [
    'chat sessions and clients that keep passwords',
    [
      '~/.local/share/TelegramDesktop/tdata/key_datas',
      '~/.local/share/remmina/group_rdp_work.remmina',
      '~/.local/share/atuin/history.db',
      '~/.config/keybase/config.json',
      '~/.config/filezilla/sitemanager.xml',
      '~/.config/remmina/remmina.pref',
      '~/.config/Code/User/globalStorage/state.vscdb',
      '~/.config/VSCodium/User/globalStorage/state.vscdb',
      '~/.config/Cursor/User/globalStorage/state.vscdb',
      '~/.lastpass/session',
      '~/.purple/accounts.xml',
      '~/.var/app/org.telegram.desktop/data/TelegramDesktop/tdata/key_datas',
      '~/.var/app/com.slack.Slack/config/Slack/Cookies',
      '~/.var/app/com.bitwarden.desktop/config/Bitwarden/data.json',
      '~/.var/app/org.signal.Signal/config/Signal/sql/db.sqlite',
    ],
  ],
  [
    'a credential-named file in a dot-directory',
    [
      '~/.config/weather-cli/credentials.json',
      '~/.myapp/auth.json',
      '~/.config/todo/token.txt',
      '~/.local/share/mail-sync/secrets.yaml',
      '~/.config/openai/api_key.txt',
      '~/.tool/API-KEY.TXT',
      '~/.config/app/access-token.json',
      '~/.config/app/client_secret.json',
      '~/.config/db/passwords.ini',
    ],
  ],
  [
    "Custode's own state and audit log",
    [
      '~/.local/share/custode',
      '~/.local/share/custode/vaglio/2026-11.jsonl',
      '~/.local/state/custode/approvals/x.json',
    ],
  ],
];

const CASES = FAMILIES.flatMap(([family, paths]) => paths.map((path) => [path, family] as const));

describe('each later forbidden family, by paths written in this test', () => {
  it.each(CASES)('fs_read of %s names the %s family', (path, family) => {
    const result = guardCall({ executor: 'fs_read', args: { path }, home });
    expect(reasonOf(result)).toMatch(/^forbidden path: /);
    expect(reasonOf(result)).toContain(family);
  });

  it.each(CASES)('cat %s in a shell names the %s family', (path, family) => {
    const result = guardShell(`cat -- '${path.replace(/^~/, home)}'`, home);
    expect(reasonOf(result)).toMatch(/^forbidden path: /);
    expect(reasonOf(result)).toContain(family);
  });
});

describe('neighbours of the later families pass', () => {
  it.each([
    '~/.config/Code/User/settings.json',
    '~/.gradle/caches/modules-2/x.jar',
    '~/.m2/repository/org/x/x.pom',
    '~/.bitcoin-notes.txt',
    '~/.zsh_history.d/notes',
    '~/.config/optional-tool/x',
    '~/project/credentials.md',
    '~/project/auth.json',
    '~/.config/app/credentials.md',
    '~/.config/app/tokenizer.json',
    '~/.local/share/custode-notes/x',
    '~/.claude/settings.json',
    '~/.codex/config.toml',
  ])('fs_read of %s passes', (path) => {
    expect(guardCall({ executor: 'fs_read', args: { path }, home }).blocked).toBe(false);
  });
});
