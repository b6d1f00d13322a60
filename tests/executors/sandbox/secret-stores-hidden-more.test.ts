// The credential stores the first hidden-stores test does not plant (browsers and password
// managers, histories, other agents' and CLIs' logins, wallets, chat clients, Flatpak apps), and
// the system's own secrets, each read from inside a real bubblewrap sandbox whose home is
// writable. The list is written here, independent of the sandbox's own list: a store dropped
// from that list shows up as a leak below.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { shellExec } from '../../../executors/shell-exec.ts';
import { makeContext } from '../make-context.ts';

const home = process.env.HOME ?? '/nonexistent';
const secret = 'PLANTED-SECRET-7e02';

/** Home-relative files that hold credentials in the wild (each tool's docs name the place). */
const STORES = [
  '.config/wireguard/wg0.conf',
  '.cert/nm-openvpn/work-key.pem',
  '.smbcredentials',
  '.davfs2/secrets',
  '.passwd-s3fs',
  '.mylogin.cnf',
  '.config/spotify/prefs',
  '.config/containers/auth.json',
  '.mc/config.json',
  '.var/app/com.spotify.Client/config/spotify/prefs',
  '.var/app/org.gnome.World.Secrets/data/passwords.kdbx',
  '.var/app/com.onepassword.OnePassword/config/1Password/settings/settings.json',
  '.var/app/me.proton.Pass/config/Proton Pass/x.json',
  '.var/app/im.riot.Riot/config/Element/Local Storage/leveldb/1.ldb',
  '.config/Element/Local Storage/leveldb/1.ldb',
  '.config/hexchat/servlist.conf',
  '_netrc',
  '.gnome2/keyrings/default.keyring',
  '.config/glab-cli/config.yml',
  '.config/BraveSoftware/Brave-Browser/Default/Login Data',
  '.config/microsoft-edge/Default/Cookies',
  '.config/vivaldi/Default/Login Data',
  '.config/opera/Login Data',
  '.config/keepassxc/keepassxc.ini',
  '.config/Bitwarden/data.json',
  '.config/1Password/settings/settings.json',
  'snap/firefox/common/.mozilla/firefox/p.default/logins.json',
  'snap/chromium/common/chromium/Default/Cookies',
  '.local/share/kwalletd/kdewallet.kwl',
  'Library/Keychains/login.keychain-db',
  '.pgpass',
  '.my.cnf',
  '.thunderbird/p.default-release/logins.json',
  '.config/rclone/rclone.conf',
  '.config/op/config',
  '.config/Slack/Cookies',
  '.config/discord/Local Storage/leveldb/000005.ldb',
  '.config/Signal/config.json',
  '.bash_history',
  '.zsh_history',
  '.python_history',
  '.psql_history',
  '.mysql_history',
  '.node_repl_history',
  '.sqlite_history',
  '.rediscli_history',
  '.histfile',
  '.local/share/fish/fish_history',
  '.claude/.credentials.json',
  '.codex/auth.json',
  '.config/github-copilot/hosts.json',
  '.gemini/oauth_creds.json',
  '.gemini/google_accounts.json',
  '.wakatime.cfg',
  '.oci/config',
  '.config/doctl/config.yaml',
  '.config/hcloud/cli.toml',
  '.config/heroku/config.json',
  '.config/netlify/config.json',
  '.config/stripe/config.toml',
  '.config/ngrok/ngrok.yml',
  '.fly/config.yml',
  '.local/share/com.vercel.cli/auth.json',
  '.supabase/access-token',
  '.wrangler/config/default.toml',
  '.config/configstore/firebase-tools.json',
  '.ngrok2/ngrok.yml',
  '.s3cfg',
  '.boto',
  '.talos/config',
  '.minikube/profiles/minikube/client.key',
  '.config/age/keys.txt',
  '.config/sops/age/keys.txt',
  '.config/solana/id.json',
  '.ethereum/keystore/UTC--2025-01-01T00-00-00Z--ab12',
  '.bitcoin/wallet.dat',
  '.electrum/wallets/default_wallet',
  '.local/share/TelegramDesktop/tdata/key_datas',
  '.local/share/remmina/group_rdp_office.remmina',
  '.local/share/atuin/history.db',
  '.config/keybase/config.json',
  '.config/filezilla/sitemanager.xml',
  '.config/remmina/remmina.pref',
  '.config/Code/User/globalStorage/state.vscdb',
  '.config/Code - OSS/User/globalStorage/state.vscdb',
  '.config/VSCodium/User/globalStorage/state.vscdb',
  '.config/Cursor/User/globalStorage/state.vscdb',
  '.lastpass/session',
  '.purple/accounts.xml',
  '.var/app/org.mozilla.firefox/.mozilla/firefox/p.default/logins.json',
  '.var/app/com.google.Chrome/config/google-chrome/Default/Login Data',
  '.var/app/org.chromium.Chromium/config/chromium/Default/Cookies',
  '.var/app/com.brave.Browser/config/BraveSoftware/Brave-Browser/Default/Login Data',
  '.var/app/com.microsoft.Edge/config/microsoft-edge/Default/Cookies',
  '.var/app/com.bitwarden.desktop/config/Bitwarden/data.json',
  '.var/app/org.keepassxc.KeePassXC/data/passwords.kdbx',
  '.var/app/org.telegram.desktop/data/TelegramDesktop/tdata/key_datas',
  '.var/app/org.signal.Signal/config/Signal/config.json',
  '.var/app/com.slack.Slack/config/Slack/Cookies',
  '.var/app/org.mozilla.Thunderbird/.thunderbird/p.default/logins.json',
];

/** System files that hold password hashes, sudo rules or private keys. */
const SYSTEM = [
  '/etc/shadow',
  '/etc/shadow-',
  '/etc/gshadow',
  '/etc/gshadow-',
  '/etc/sudoers',
  '/etc/ssh/ssh_host_ed25519_key',
  '/etc/ssh/ssh_host_rsa_key',
  '/etc/security/opasswd',
];

beforeAll(async () => {
  for (const store of STORES) {
    await mkdir(dirname(join(home, store)), { recursive: true });
    await writeFile(join(home, store), `${secret} ${store}\n`);
  }
});

async function hostText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

describe('a sandboxed command with the home writable', () => {
  it('reads none of these planted credential stores', async () => {
    const ctx = await makeContext({ roots: { write: ['~'] } });
    const command = 'for f in "$@"; do cat -- "$HOME/$f" 2>/dev/null; done; echo done';
    const result = await shellExec.run({ command, args: STORES }, ctx);
    expect(result.sandbox).toBe('bwrap');
    const leaked = STORES.filter((store) => result.stdout.includes(`${secret} ${store}`));
    expect(leaked).toEqual([]);
    expect(result.stdout).toBe('done\n');
  });

  it('reads none of the system secrets the host holds', async () => {
    const ctx = await makeContext({ roots: { write: ['~'] } });
    const command = 'for f in "$@"; do printf "%s:" "$f"; cat -- "$f" 2>/dev/null | wc -c; done';
    const result = await shellExec.run({ command, args: SYSTEM }, ctx);
    expect(result.sandbox).toBe('bwrap');
    // Each file reads as empty inside (masked); a host file this user cannot read proves less.
    const sizes = Object.fromEntries(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => [
          line.slice(0, line.lastIndexOf(':')),
          line.slice(line.lastIndexOf(':') + 1),
        ]),
    );
    expect(sizes).toEqual(Object.fromEntries(SYSTEM.map((path) => [path, '0'])));
    const readable = (await Promise.all(SYSTEM.map(hostText))).filter((text) => text !== null);
    for (const text of readable.filter((t) => t.length > 0))
      expect(result.stdout).not.toContain(text.slice(0, 40));
  });
});
