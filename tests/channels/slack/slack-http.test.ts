// Slack in HTTP mode, end to end: signed events and interactions posted to Bolt's receiver,
// the Web API served locally, the real app with the offline model behind it.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { webApi } from '@slack/bolt';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPairingStore, pairingFile } from '../../../channels/pairing/pairing-store.ts';
import { createSlackAdapter, type SlackAdapter } from '../../../channels/slack/slack-adapter.ts';
import { createSlackSink } from '../../../channels/slack/slack-sink.ts';
import { createApp, type App } from '../../../runtime/app.ts';
import { parseConfig } from '../../../runtime/config.ts';
import { countingClient, daemonEnv } from '../telegram/daemon.ts';
import { freePort } from '../../../runtime/bench/free-port.ts';
import { signedHeaders, startSlackApi, type SlackApi } from './slack-api.ts';

const home = process.env.HOME ?? '';
const secret = 'test-signing-secret';
let api: SlackApi;
let app: App;
let adapter: SlackAdapter;
let port: number;
let modelCalls: () => number;
let modelTexts: () => string[];
let stateDir: string;

/** The app and the Slack adapter over `stateDir` (again after a stop: a restart). */
async function startSlack(): Promise<void> {
  const config = parseConfig({
    sandbox: { mode: 'off' },
    channels: {
      slack: {
        enabled: true,
        mode: 'http',
        port,
        api_url: api.url,
        allowed_users: ['U1', 'U2'],
        team_id: 'T1',
      },
    },
  });
  const env = daemonEnv(stateDir, { SLACK_BOT_TOKEN: 'xoxb-test', SLACK_SIGNING_SECRET: secret });
  const logger = pino({ level: 'silent' });
  const counting = countingClient();
  modelCalls = counting.calls;
  modelTexts = counting.texts;
  app = await createApp({ config, env, logger, client: counting.client });
  adapter = createSlackAdapter({ config, env, logger });
  await adapter.start(app.service);
}

beforeEach(async () => {
  api = await startSlackApi();
  port = await freePort();
  stateDir = await mkdtemp(join(home, 'slack-state-'));
  await startSlack();
});
afterEach(async () => {
  await adapter.stop();
  await app.close();
  await api.close();
});

let eventCounter = 0;
/** A DM event; with `threadTs`, a reply in a thread of the DM. */
function dmEvent(user: string, text: string, ts: string, threadTs?: string): string {
  eventCounter += 1;
  return JSON.stringify({
    token: 'legacy',
    team_id: 'T1',
    api_app_id: 'A1',
    type: 'event_callback',
    event_id: `Ev${String(eventCounter)}`,
    event_time: Math.floor(Date.now() / 1000),
    event: {
      type: 'message',
      channel_type: 'im',
      channel: 'D1',
      user,
      text,
      ts,
      event_ts: ts,
      ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
    },
  });
}

function buttonPress(user: string, actionId: string): string {
  const payload = {
    type: 'block_actions',
    team: { id: 'T1', domain: 'test' },
    user: { id: user, username: user, team_id: 'T1' },
    api_app_id: 'A1',
    token: 'legacy',
    trigger_id: 't1',
    container: { type: 'message', channel_id: 'D1', message_ts: '1' },
    channel: { id: 'D1', name: 'directmessage' },
    response_url: `${api.url}response`,
    actions: [
      {
        type: 'button',
        action_id: actionId,
        block_id: 'card',
        value: actionId,
        action_ts: '1',
        text: { type: 'plain_text', text: 'x' },
      },
    ],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

async function post(
  body: string,
  contentType: string,
  headers = signedHeaders(secret, body, contentType),
): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${String(port)}/slack/events`, {
    method: 'POST',
    headers,
    body,
  });
  await response.text();
  return response.status;
}

/** The card's action ids, once a card with buttons has been posted. */
async function cardActions(): Promise<string[]> {
  return vi.waitFor(
    () => {
      const card = api
        .callsTo('chat.postMessage')
        .find(
          (call) =>
            Array.isArray(call.args.blocks) &&
            JSON.stringify(call.args.blocks).includes('"actions"'),
        );
      if (card === undefined) throw new Error('no card yet');
      const blocks = card.args.blocks as { type: string; elements?: { action_id: string }[] }[];
      return blocks.find((b) => b.type === 'actions')?.elements?.map((e) => e.action_id) ?? [];
    },
    { timeout: 15_000, interval: 20 },
  );
}

describe('Slack over HTTP', () => {
  it('answers a DM in the DM with a card; Allow once runs it and chat.update shows who decided', async () => {
    expect(
      await post(dmEvent('U1', '/write ~/slack-once.txt hello', '1000.0001'), 'application/json'),
    ).toBe(200);
    const actions = await cardActions();
    expect(actions).toHaveLength(3);
    const card = api.callsTo('chat.postMessage').find((call) => call.args.blocks !== undefined);
    expect(card?.args).toMatchObject({ channel: 'D1' });
    expect(card?.args.thread_ts).toBeUndefined();
    expect(JSON.stringify(card?.args.blocks)).toContain('Approval needed: Create ~/slack-once.txt');

    const once = actions.find((id) => id.endsWith(':o')) ?? '';
    expect(await post(buttonPress('U1', once), 'application/x-www-form-urlencoded')).toBe(200);
    await vi.waitFor(
      async () => {
        expect(await readFile(join(home, 'slack-once.txt'), 'utf8')).toBe('hello');
        expect(api.callsTo('chat.update').map((call) => call.args.text)).toContainEqual(
          expect.stringContaining('Allowed once by slack:U1'),
        );
        const answers = api
          .callsTo('chat.postMessage')
          .filter((call) => call.args.blocks === undefined);
        expect(answers.length).toBeGreaterThan(0);
        expect(answers.every((call) => call.args.thread_ts === undefined)).toBe(true);
      },
      { timeout: 15_000, interval: 20 },
    );
  });

  it('answers a mention in a channel in the thread of the mention', async () => {
    eventCounter += 1;
    const body = JSON.stringify({
      token: 'legacy',
      team_id: 'T1',
      api_app_id: 'A1',
      type: 'event_callback',
      event_id: `Ev${String(eventCounter)}`,
      event_time: Math.floor(Date.now() / 1000),
      event: {
        type: 'app_mention',
        channel: 'C1',
        user: 'U1',
        text: '<@UBOT> /help',
        ts: '2000.0001',
        event_ts: '2000.0001',
      },
    });
    expect(await post(body, 'application/json')).toBe(200);
    await vi.waitFor(() => {
      expect(api.callsTo('chat.postMessage').map((c) => c.args)).toContainEqual(
        expect.objectContaining({ channel: 'C1', thread_ts: '2000.0001' }),
      );
    });
  });

  it('ignores events from another workspace when team_id is set', async () => {
    const foreign = JSON.parse(dmEvent('U1', '/help', '3000.0001', '3000.0001')) as Record<
      string,
      unknown
    >;
    const body = JSON.stringify({ ...foreign, team_id: 'T-OTHER' });
    expect(await post(body, 'application/json')).toBe(200);
    await post(dmEvent('U1', '/help', '3000.0002', '3000.0002'), 'application/json');
    await vi.waitFor(() => {
      expect(api.callsTo('chat.postMessage').some((c) => c.args.thread_ts === '3000.0002')).toBe(
        true,
      );
    });
    expect(api.callsTo('chat.postMessage').some((c) => c.args.thread_ts === '3000.0001')).toBe(
      false,
    );
  });

  it('tells another user the card is not theirs, and Deny leaves no file', async () => {
    await post(dmEvent('U1', '/write ~/slack-deny.txt hello', '1000.0002'), 'application/json');
    const actions = await cardActions();
    await post(
      buttonPress('U2', actions.find((id) => id.endsWith(':o')) ?? ''),
      'application/x-www-form-urlencoded',
    );
    await vi.waitFor(() => {
      expect(api.callsTo('chat.postEphemeral').map((c) => c.args)).toContainEqual(
        expect.objectContaining({ user: 'U2', text: 'This card is not yours to answer.' }),
      );
    });
    await post(
      buttonPress('U1', actions.find((id) => id.endsWith(':d')) ?? ''),
      'application/x-www-form-urlencoded',
    );
    await vi.waitFor(() => {
      expect(api.callsTo('chat.update').map((call) => call.args.text)).toContainEqual(
        expect.stringContaining('Denied by slack:U1'),
      );
    });
    expect(existsSync(join(home, 'slack-deny.txt'))).toBe(false);
  });

  it('rejects a badly signed request with 401; it never reaches the planner', async () => {
    const body = dmEvent('U1', '/write ~/forged.txt hello', '1000.0003');
    const forged = signedHeaders('not-the-secret', body, 'application/json');
    expect(await post(body, 'application/json', forged)).toBe(401);
    const stale = {
      ...signedHeaders(secret, body, 'application/json'),
      'x-slack-request-timestamp': String(Math.floor(Date.now() / 1000) - 3600),
    };
    expect(await post(body, 'application/json', stale)).toBe(401);
    // A signed request afterwards is processed, so the forged ones had their chance to arrive.
    await post(dmEvent('U1', '/help', '1000.0004'), 'application/json');
    await vi.waitFor(() => {
      expect(api.callsTo('chat.postMessage').length).toBeGreaterThan(0);
    });
    expect(modelCalls()).toBe(0);
    expect(
      api.callsTo('chat.postMessage').some((call) => JSON.stringify(call.args).includes('forged')),
    ).toBe(false);
    expect(existsSync(join(home, 'forged.txt'))).toBe(false);
  });

  it('posts a rate-limited answer once, after Retry-After', async () => {
    api.rateLimitNext('chat.postMessage', 1);
    expect(await post(dmEvent('U1', '/help', '4000.0001', '4000.0001'), 'application/json')).toBe(
      200,
    );
    const inThread = (ts: string) =>
      api.callsTo('chat.postMessage').filter((call) => call.args.thread_ts === ts);
    const [limited, retry] = await vi.waitFor(
      () => {
        const calls = inThread('4000.0001');
        if (!calls.some((call) => !call.limited)) throw new Error('not posted yet');
        return calls;
      },
      { timeout: 15_000, interval: 20 },
    );
    expect(limited?.limited).toBe(true);
    expect(retry?.args).toEqual(limited?.args);
    expect(String(retry?.args.text)).toContain('/help');
    // performance.now() both sides; Node's timers may end ~1 ms early, hence the 5 ms slack.
    expect((retry?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(1000 - 5);

    // A second turn is the barrier: once its answer is in, a duplicate of the first would be too.
    await post(dmEvent('U1', '/help', '4000.0002', '4000.0002'), 'application/json');
    await vi.waitFor(() => expect(inThread('4000.0002')).toHaveLength(1), {
      timeout: 15_000,
      interval: 20,
    });
    expect(inThread('4000.0001')).toHaveLength(2);
  });

  it('gives a stranger in a DM one pairing code, never asks the model for them, and lets them in once approved', async () => {
    await post(dmEvent('U9', '/write ~/stranger.txt hi', '1000.0005'), 'application/json');
    await post(dmEvent('U9', 'hello?', '1000.0006'), 'application/json');
    await vi.waitFor(() => {
      expect(api.callsTo('chat.postMessage').length).toBeGreaterThan(0);
    });
    await post(dmEvent('U1', '/help', '1000.0007', '1000.0007'), 'application/json');
    await vi.waitFor(() => {
      expect(api.callsTo('chat.postMessage').some((c) => c.args.thread_ts === '1000.0007')).toBe(
        true,
      );
    });
    const refusals = api
      .callsTo('chat.postMessage')
      .filter((c) => String(c.args.text).includes('custode pair approve'));
    expect(refusals).toHaveLength(1);
    expect(modelCalls()).toBe(0);
    const code = /custode pair approve (\S+)/.exec(String(refusals[0]?.args.text))?.[1] ?? '';
    const store = createPairingStore(pairingFile(join(stateDir, 'state', 'custode'), 'slack'));
    expect(await store.approve(code)).toMatchObject({ id: 'U9' });
    await post(dmEvent('U9', '/help', '1000.0008', '1000.0008'), 'application/json');
    await vi.waitFor(() => {
      expect(api.callsTo('chat.postMessage').some((c) => c.args.thread_ts === '1000.0008')).toBe(
        true,
      );
    });
  });

  it('keeps one conversation per DM, a thread per channel mention, and strips only its own mention', async () => {
    await post(dmEvent('U1', 'first words', '5000.0001'), 'application/json');
    await post(dmEvent('U1', 'second words', '5000.0002'), 'application/json');
    await post(dmEvent('U1', 'in a thread', '5000.0004', '5000.0003'), 'application/json');
    eventCounter += 1;
    const mention = JSON.stringify({
      token: 'legacy',
      team_id: 'T1',
      api_app_id: 'A1',
      type: 'event_callback',
      event_id: `Ev${String(eventCounter)}`,
      event_time: Math.floor(Date.now() / 1000),
      event: {
        type: 'app_mention',
        channel: 'C1',
        user: 'U1',
        text: '<@UBOT> ask <@U2|bob> about it',
        ts: '6000.0001',
        event_ts: '6000.0001',
      },
    });
    await post(mention, 'application/json');
    await vi.waitFor(() => expect(modelTexts()).toHaveLength(4), { timeout: 15_000, interval: 20 });
    expect(modelTexts()).toContain('ask <@U2|bob> about it');
    // Only the history files: a writer's lock (<file>.lock) may be there for a moment.
    const histories = (await readdir(join(stateDir, 'state', 'custode', 'history'))).filter(
      (name) => name.endsWith('.json'),
    );
    // D1's top level (two messages, one file), D1's thread, C1's thread.
    expect(histories.sort()).toHaveLength(3);
  });
});

describe('Slack outbox', () => {
  const outboxDir = (): string => join(stateDir, 'state', 'custode', 'outbox', 'slack');
  const saved = async (): Promise<string[]> =>
    existsSync(outboxDir()) ? (await readdir(outboxDir())).filter((n) => n.endsWith('.json')) : [];
  const postedIn = (ts: string) =>
    api.callsTo('chat.postMessage').filter((call) => call.args.thread_ts === ts && !call.limited);
  const slow = { timeout: 20_000, interval: 50 };

  it('keeps answers while Slack answers 503 and posts them in order, once, when it is back', async () => {
    api.outage(503);
    await post(dmEvent('U1', '/help', '5000.0001', '5000.0001'), 'application/json');
    await vi.waitFor(async () => expect(await saved()).toHaveLength(1), slow);
    await post(dmEvent('U1', '/rules', '5000.0002', '5000.0001'), 'application/json');
    await vi.waitFor(async () => expect(await saved()).toHaveLength(2), slow);
    expect(postedIn('5000.0001')).toHaveLength(0);

    api.outage(null);
    await vi.waitFor(() => expect(postedIn('5000.0001')).toHaveLength(2), slow);
    const [help, rules] = postedIn('5000.0001');
    expect(String(help?.args.text)).toContain('/help');
    expect(String(rules?.args.text)).toContain('always-allow');
    await vi.waitFor(async () => expect(await saved()).toHaveLength(0));
  });

  it('posts after a restart what the previous run kept', async () => {
    api.outage(502);
    await post(dmEvent('U1', '/help', '5100.0001', '5100.0001'), 'application/json');
    await vi.waitFor(async () => expect(await saved()).toHaveLength(1), slow);
    await adapter.stop();
    await app.close();

    api.outage(null);
    await startSlack();
    await vi.waitFor(() => expect(postedIn('5100.0001')).toHaveLength(1), slow);
    expect(String(postedIn('5100.0001')[0]?.args.text)).toContain('/help');
    await vi.waitFor(async () => expect(await saved()).toHaveLength(0));
  });

  it('gives up at once, without retrying, when Slack refuses the token mid-run', async () => {
    api.rejectTokens();
    await post(dmEvent('U1', '/help', '5200.0001', '5200.0001'), 'application/json');
    await vi.waitFor(() => expect(api.callsTo('chat.postMessage')).toHaveLength(1), slow);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(api.callsTo('chat.postMessage')).toHaveLength(1);
    expect(await saved()).toHaveLength(0);
  });
});

describe('Slack token check', () => {
  it('stops the start with a clear error for a rejected token, and for no Slack at all', async () => {
    const config = parseConfig({
      channels: { slack: { enabled: true, mode: 'http', port, api_url: api.url } },
    });
    const env = { SLACK_BOT_TOKEN: 'xoxb-revoked', SLACK_SIGNING_SECRET: secret };
    const logger = pino({ level: 'silent' });
    api.rejectTokens();
    await expect(createSlackAdapter({ config, env, logger }).start(app.service)).rejects.toThrow(
      "Slack rejected SLACK_BOT_TOKEN: invalid_auth. Fix: copy the Bot User OAuth Token (xoxb-...) from the app's Install App page",
    );
    const offline = parseConfig({
      channels: {
        slack: { enabled: true, mode: 'http', port, api_url: 'http://127.0.0.1:9/api/' },
      },
    });
    await expect(
      createSlackAdapter({ config: offline, env, logger }).start(app.service),
    ).rejects.toThrow(
      /cannot reach Slack at http:\/\/127\.0\.0\.1:9\/api\/: .*Fix: check the network/,
    );
  });

  it('splits a long answer into messages Slack shows whole, cut at line ends', async () => {
    const lines = Array.from(
      { length: 850 },
      (_, i) => `line ${String(i).padStart(4, '0')} ${'x'.repeat(30)}`,
    );
    const client = new webApi.WebClient('xoxb-test', { slackApiUrl: api.url });
    await createSlackSink(client, pino({ level: 'silent' })).sendText('D1/', lines.join('\n'));
    const parts = api.callsTo('chat.postMessage').map((call) => String(call.args.text));
    // 34,849 characters, 41 per line: 97 whole lines (3,976 characters) fit in a part.
    expect(parts.length).toBe(9);
    expect(
      parts.every((part) => part.split('\n').every((line) => /^line \d{4} x{30}$/.test(line))),
    ).toBe(true);
    expect(parts.every((part) => part.length <= 4000)).toBe(true);
    expect(parts.join('\n')).toBe(lines.join('\n'));
    expect(api.callsTo('chat.postMessage').every((call) => call.args.thread_ts === undefined)).toBe(
      true,
    );
  });
});
