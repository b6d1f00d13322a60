// The app manifest in the repository asks for what the adapter uses: the events it listens to,
// the Web API methods it calls, and the buttons of its cards.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

interface Manifest {
  oauth_config: { scopes: { bot: string[] } };
  settings: {
    event_subscriptions: { bot_events: string[] };
    interactivity: { is_enabled: boolean };
    socket_mode_enabled: boolean;
  };
}

const root = join(import.meta.dirname, '../../..');
const manifest = parse(
  readFileSync(join(root, 'channels/slack/manifest.yaml'), 'utf8'),
) as Manifest;
const adapter = readFileSync(join(root, 'channels/slack/slack-adapter.ts'), 'utf8');
const sink = readFileSync(join(root, 'channels/slack/slack-sink.ts'), 'utf8');

describe('Slack app manifest', () => {
  it('subscribes to the events the adapter handles, with the scopes they need', () => {
    const events = manifest.settings.event_subscriptions.bot_events;
    expect(events).toEqual(['app_mention', 'message.im']);
    expect(adapter).toContain("event('app_mention'");
    expect(adapter).toContain("channel_type !== 'im'");
    const scopes = manifest.oauth_config.scopes.bot;
    expect(scopes).toEqual(
      expect.arrayContaining(['app_mentions:read', 'im:history', 'chat:write']),
    );
  });

  it('has interactivity for the card buttons and chat:write for every Web API call the channel makes', () => {
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
    expect(adapter).toContain('created.action(');
    const calls = [...`${adapter}\n${sink}`.matchAll(/client\.(chat\.\w+)\(/g)].map((m) => m[1]);
    expect(new Set(calls)).toEqual(
      new Set(['chat.postEphemeral', 'chat.postMessage', 'chat.update']),
    );
    expect(manifest.oauth_config.scopes.bot).toContain('chat:write');
    expect(manifest.settings.socket_mode_enabled).toBe(true);
  });
});
