// Slack in Socket Mode under faults: the real adapter and Bolt's Socket Mode client against a
// local Web API (apps.connections.open) and a local Socket Mode WebSocket; the real app with
// the offline model behind it. Slack going away and a revoked app token must both be said,
// in the log and in the channel health that doctor and /healthz read.
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSlackAdapter, type SlackAdapter } from '../../../channels/slack/slack-adapter.ts';
import { createApp, type App } from '../../../runtime/app.ts';
import { parseConfig } from '../../../runtime/config.ts';
import {
  createChannelHealth,
  failingLines,
  readHealth,
  type ChannelHealth,
} from '../../../runtime/health/channel-health.ts';
import { captureLogger } from '../../helpers/judge-panel.ts';
import { countingClient, daemonEnv } from '../telegram/daemon.ts';
import { startSlackApi, type SlackApi } from './slack-api.ts';
import { startSocketModeServer, type SocketModeServer } from './socket-mode-server.ts';

const home = process.env.HOME ?? '';
let socket: SocketModeServer;
let api: SlackApi;
let app: App;
let adapter: SlackAdapter;
let health: ChannelHealth;
let stateDir: string;
let logLines: Record<string, unknown>[];

beforeEach(async () => {
  socket = await startSocketModeServer();
  api = await startSlackApi({ socketUrl: socket.url });
  stateDir = await mkdtemp(join(home, 'slack-socket-'));
  const config = parseConfig({
    sandbox: { mode: 'off' },
    channels: {
      slack: {
        enabled: true,
        mode: 'socket',
        api_url: api.url,
        allowed_users: ['U1'],
        team_id: 'T1',
      },
    },
  });
  const env = daemonEnv(stateDir, { SLACK_BOT_TOKEN: 'xoxb-test', SLACK_APP_TOKEN: 'xapp-test' });
  const captured = captureLogger();
  logLines = captured.lines;
  app = await createApp({ config, env, logger: captured.logger, client: countingClient().client });
  health = createChannelHealth(join(stateDir, 'state', 'custode'), captured.logger);
  adapter = createSlackAdapter({ config, env, logger: captured.logger, health });
  await adapter.start(app.service);
});
afterEach(async () => {
  await adapter.stop();
  await app.close();
  await api.close();
  await socket.close();
});

const messages = (): string[] => logLines.map((line) => String(line.msg));

function dmEnvelope(id: string, text: string): Record<string, unknown> {
  return {
    type: 'events_api',
    envelope_id: id,
    accepts_response_payload: false,
    payload: {
      token: 'legacy',
      team_id: 'T1',
      api_app_id: 'A1',
      type: 'event_callback',
      event_id: `Ev-${id}`,
      event_time: Math.floor(Date.now() / 1000),
      event: {
        type: 'message',
        channel_type: 'im',
        channel: 'D1',
        user: 'U1',
        text,
        ts: '3000.0001',
        event_ts: '3000.0001',
      },
    },
  };
}

describe('Slack Socket Mode under faults', () => {
  it('says so while Slack cannot be reached, reconnects when it is back, and answers what comes next', async () => {
    expect(socket.opened()).toBe(1);
    api.outage(503);
    socket.drop();
    await vi.waitFor(
      () => {
        expect(failingLines(health.snapshot())).toContainEqual(
          expect.stringMatching(/^slack connection: \d+ failures in a row since .*HTTP 503/),
        );
        expect(messages()).toContain('slack connection has failed 3 times in a row');
      },
      { timeout: 20_000, interval: 50 },
    );
    await health.flush();
    expect(
      (await readHealth(join(stateDir, 'state', 'custode')))?.runs['slack connection'],
    ).toEqual(expect.objectContaining({ failuresInARow: expect.any(Number) as number }));

    api.outage(null);
    await vi.waitFor(
      () => {
        expect(socket.opened()).toBe(2);
        expect(failingLines(health.snapshot())).toEqual([]);
        expect(messages()).toContainEqual(expect.stringMatching(/^slack connection works again/));
      },
      { timeout: 20_000, interval: 50 },
    );

    socket.send(dmEnvelope('env-after', '/help'));
    await vi.waitFor(
      () => {
        expect(socket.acks).toContain('env-after');
        expect(
          api
            .callsTo('chat.postMessage')
            .filter((call) => !call.limited && call.args.channel === 'D1'),
        ).not.toEqual([]);
      },
      { timeout: 15_000, interval: 50 },
    );
  }, 60_000);

  it('stops at once and says so when Slack refuses the app token mid-run', async () => {
    expect(socket.opened()).toBe(1);
    api.rejectTokens();
    socket.drop();
    await vi.waitFor(
      () => {
        expect(messages()).toContainEqual(
          expect.stringMatching(/^Slack refused the app token \(invalid_auth\).*SLACK_APP_TOKEN/),
        );
        expect(failingLines(health.snapshot())).toContainEqual(
          expect.stringMatching(
            /^slack connection: stopped at .* \(last: Slack refused the app token \(invalid_auth\)\)/,
          ),
        );
      },
      { timeout: 15_000, interval: 50 },
    );
    const tries = api.callsTo('apps.connections.open').length;
    await sleep(3_000);
    // No retry loop against a refused token, and the daemon is still up (an unhandled
    // rejection from the socket client would fail this run).
    expect(api.callsTo('apps.connections.open')).toHaveLength(tries);
    expect(socket.opened()).toBe(1);
  }, 30_000);

  it('does not start, and names the fix, when Slack refuses the app token at start', async () => {
    await adapter.stop();
    api.rejectTokens('apps.connections.open');
    const config = parseConfig({
      sandbox: { mode: 'off' },
      channels: {
        slack: { enabled: true, mode: 'socket', api_url: api.url, allowed_users: ['U1'] },
      },
    });
    const env = daemonEnv(stateDir, {
      SLACK_BOT_TOKEN: 'xoxb-test',
      SLACK_APP_TOKEN: 'xapp-revoked',
    });
    adapter = createSlackAdapter({ config, env, logger: captureLogger().logger, health });
    await expect(adapter.start(app.service)).rejects.toThrow(
      /^Slack refused the app token \(invalid_auth\)\. Fix: set SLACK_APP_TOKEN/,
    );
    expect(api.callsTo('apps.connections.open').at(-1)?.limited).toBe(false);
  });
});
