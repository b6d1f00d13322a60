// A local Slack Web API: answers auth.test, chat.postMessage, chat.update,
// chat.postEphemeral and (given a Socket Mode URL) apps.connections.open in Slack's wire format and records every call; anything else is an
// error the test will see. It can rate-limit a call (HTTP 429 with Retry-After, as Slack
// does). Plus request signing, as Slack signs what it sends to an app.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { performance } from 'node:perf_hooks';

export interface SlackCall {
  readonly method: string;
  readonly args: Record<string, unknown>;
  /** performance.now() when the call arrived. */
  readonly at: number;
  /** True when it was answered 429 (see rateLimitNext) or failed by an outage, so nothing was posted. */
  readonly limited: boolean;
}

export interface SlackApi {
  /** Base URL for clientOptions.slackApiUrl (ends with /api/). */
  readonly url: string;
  readonly calls: SlackCall[];
  callsTo(method: string): SlackCall[];
  /** Answers the next call to `method` with 429 and `Retry-After: <seconds>`. */
  rateLimitNext(method: string, seconds: number): void;
  /** From now on every token is refused, as Slack does a revoked one (`invalid_auth`); with `method`, only there. */
  rejectTokens(method?: string): void;
  /** While set, every call but auth.test is answered with this HTTP status (Slack having an outage). */
  outage(status: number | null): void;
  close(): Promise<void>;
}

function parseArgs(contentType: string | undefined, body: string): Record<string, unknown> {
  if (contentType?.includes('application/json') === true)
    return JSON.parse(body) as Record<string, unknown>;
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    args[key] = key === 'blocks' ? (JSON.parse(value) as unknown) : value;
  }
  return args;
}

/** Starts the Web API stand-in; `socketUrl` is what apps.connections.open hands out. */
export async function startSlackApi(options: { socketUrl?: string } = {}): Promise<SlackApi> {
  const calls: SlackCall[] = [];
  const limits = new Map<string, number>();
  let ts = 1_700_000_000;
  let rejecting: string | true | null = null;
  let outageStatus: number | null = null;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const method = (request.url ?? '').replace(/^\/api\//, '').split('?')[0] ?? '';
      const args = parseArgs(request.headers['content-type'], body);
      const retryAfter = limits.get(method);
      const down = outageStatus !== null && method !== 'auth.test';
      calls.push({
        method,
        args,
        at: performance.now(),
        limited: retryAfter !== undefined || down,
      });
      if (down) {
        response.writeHead(outageStatus ?? 503, { 'content-type': 'text/plain' });
        response.end('upstream unavailable');
        return;
      }
      if (retryAfter !== undefined) {
        limits.delete(method);
        response.writeHead(429, {
          'content-type': 'application/json',
          'retry-after': String(retryAfter),
        });
        response.end(JSON.stringify({ ok: false, error: 'ratelimited' }));
        return;
      }
      let result: Record<string, unknown>;
      switch (rejecting === true || rejecting === method ? 'rejected' : method) {
        case 'rejected':
          result = { ok: false, error: 'invalid_auth' };
          break;
        case 'auth.test':
          result = {
            ok: true,
            url: 'https://test.slack.com/',
            team: 'Test',
            user: 'custode',
            team_id: 'T1',
            user_id: 'UBOT',
            bot_id: 'BBOT',
          };
          break;
        case 'chat.postMessage':
          ts += 1;
          result = {
            ok: true,
            channel: args.channel,
            ts: `${String(ts)}.000100`,
            message: { text: args.text },
          };
          break;
        case 'chat.update':
          result = { ok: true, channel: args.channel, ts: args.ts };
          break;
        case 'apps.connections.open':
          result =
            options.socketUrl === undefined
              ? { ok: false, error: 'unknown_method' }
              : { ok: true, url: options.socketUrl };
          break;
        case 'chat.postEphemeral':
          result = { ok: true, message_ts: `${String(ts)}.000200` };
          break;
        default:
          result = { ok: false, error: 'unknown_method' };
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(result));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${String(address.port)}/api/`,
    calls,
    callsTo: (method) => calls.filter((call) => call.method === method),
    rateLimitNext: (method, seconds) => void limits.set(method, seconds),
    rejectTokens: (only) => void (rejecting = only ?? true),
    outage: (status) => void (outageStatus = status),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Slack's v0 signature headers for `body` (HMAC-SHA256 over `v0:<ts>:<body>`). */
export function signedHeaders(
  secret: string,
  body: string,
  contentType: string,
): Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return {
    'content-type': contentType,
    'x-slack-request-timestamp': timestamp,
    'x-slack-signature': signature,
  };
}
