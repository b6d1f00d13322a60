// The credential stores of a developer's laptop beyond ssh, gpg and the big clouds: other
// agents' logins (Claude Code, Codex, Copilot, Gemini), cloud and deploy CLIs, package
// registries, encryption keys (age, sops), wallets, chat sessions and clients that keep
// passwords in plain text. Each is refused to fs_read and to a shell read, like ~/.ssh; a
// credential-named file in any dot-directory of the home is refused too, so a store nobody
// listed is not readable for want of a name. Ordinary files next to them stay readable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

let pipeline: Pipeline;
beforeAll(async () => {
  pipeline = await pipelineWith();
});
afterAll(() => pipeline.close());

const STORES = [
  '~/.claude/.credentials.json',
  '~/.codex/auth.json',
  '~/.config/github-copilot/hosts.json',
  '~/.config/github-copilot/apps.json',
  '~/.gemini/oauth_creds.json',
  '~/.oci/config',
  '~/.config/doctl/config.yaml',
  '~/.fly/config.yml',
  '~/.config/hcloud/cli.toml',
  '~/.config/heroku/credentials',
  '~/.local/share/com.vercel.cli/auth.json',
  '~/.config/netlify/config.json',
  '~/.supabase/access-token',
  '~/.wrangler/config/default.toml',
  '~/.config/configstore/firebase-tools.json',
  '~/.config/stripe/config.toml',
  '~/.config/ngrok/ngrok.yml',
  '~/.ngrok2/ngrok.yml',
  '~/.s3cfg',
  '~/.boto',
  '~/.talos/config',
  '~/.minikube/profiles/minikube/client.key',
  '~/.m2/settings.xml',
  '~/.gradle/gradle.properties',
  '~/.gem/credentials',
  '~/.config/pip/pip.conf',
  '~/.pip/pip.conf',
  '~/.composer/auth.json',
  '~/.config/composer/auth.json',
  '~/.yarnrc.yml',
  '~/.config/git/credentials',
  '~/.wakatime.cfg',
  '~/.config/age/keys.txt',
  '~/.config/sops/age/keys.txt',
  '~/.config/solana/id.json',
  '~/.ethereum/keystore/UTC--2026',
  '~/.bitcoin/wallet.dat',
  '~/.electrum/wallets/default_wallet',
  '~/.local/share/TelegramDesktop/tdata/key_datas',
  '~/.config/Signal/config.json',
  '~/.config/keybase/config.json',
  '~/.lastpass/session',
  '~/.config/Code/User/globalStorage/state.vscdb',
  '~/.config/filezilla/sitemanager.xml',
  '~/.config/remmina/work.remmina',
  '~/.local/share/remmina/work.remmina',
  '~/.purple/accounts.xml',
  '~/.local/share/atuin/history.db',
  '~/.var/app/org.mozilla.firefox/.mozilla/firefox/x.default/logins.json',
  '~/.var/app/com.google.Chrome/config/google-chrome/Default/Login Data',
  // Stores nobody listed, found by what their files are called.
  '~/.config/acme-cli/credentials.json',
  '~/.acme/auth.json',
  '~/.config/acme/token.txt',
  '~/.acme/secrets.yaml',
  '~/.local/share/acme/api-key.txt',
];

const ORDINARY = [
  '~/.config/acme/settings.json',
  '~/.cargo/registry/src/index.crates.io-6f17d22bba15001f/reqwest-0.12.0/src/auth.rs',
  '~/.vscode/extensions/ms-python.python-2026.1.0/out/tokenizer.js',
  '~/.config/nvim/init.lua',
  '~/projects/app/config/auth.json',
  '~/projects/app/src/token.ts',
  '~/notes/passwords-to-change.md',
  // A word a command searches for is not a file, even where a credential file could be.
  '~/.config/acme/api_key',
  '~/.config/acme/TOKEN',
];

describe('credential stores are refused like ~/.ssh', () => {
  it.each(STORES)('fs_read %s is refused', async (path) => {
    const outcome = await pipeline.evaluate(call('fs_read', { path }));
    expect(outcome).toMatchObject({ decision: 'deny', stage: 'guard' });
  });

  it.each(STORES)('cat %s is refused', async (path) => {
    const command = `cat '${path.replace('~/', '')}'`;
    const outcome = await pipeline.evaluate(
      call('shell_exec', { command, cwd: process.env.HOME ?? '' }),
    );
    expect(outcome).toMatchObject({ decision: 'deny', stage: 'guard' });
  });

  it.each(ORDINARY)('fs_read %s is not refused', async (path) => {
    const outcome = await pipeline.evaluate(call('fs_read', { path }));
    expect(outcome.decision).not.toBe('deny');
  });
});
