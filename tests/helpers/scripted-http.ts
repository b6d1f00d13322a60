// The common core of the scripted model servers: a real node:http server on 127.0.0.1 that
// records every request and answers from a per-test script, failing loudly on anything
// it was not told to expect.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted call in a provider-neutral shape; each server renders it in its wire format. */
export type ScriptedReply =
  | {
      readonly kind: 'message';
      readonly text?: string;
      readonly toolCalls?: readonly ScriptedToolCall[];
    }
  | {
      readonly kind: 'error';
      readonly status: number;
      readonly message?: string;
      /** Response headers, e.g. retry-after. */
      readonly headers?: Readonly<Record<string, string>>;
    }
  /** Never answers (until the client gives up or the server closes). */
  | { readonly kind: 'hang' };

export interface ScriptedToolCall {
  readonly name: string;
  /** A string is sent as is (malformed JSON on purpose); an object is serialised. */
  readonly arguments: string | Readonly<Record<string, unknown>>;
  readonly id?: string;
}

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: unknown;
}

/** A reply computed from the request (benchmarks, long conversations). */
export type ReplyFunction = (request: RecordedRequest) => ScriptedReply;

export interface ScriptedServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Requests that arrived with nothing scripted, or on an unknown route. */
  readonly unexpected: string[];
  /** Queue replies for the next chat requests, in order. */
  script(...replies: ScriptedReply[]): void;
  /** Answer every chat request with this once the queue is empty. */
  fallback(reply: ReplyFunction | null): void;
  /** Scripted replies not consumed yet. */
  pending(): number;
  close(): Promise<void>;
}

export interface Route {
  readonly method: string;
  readonly path: string;
  /** chat routes consume the script; others answer with `fixed`. */
  readonly chat: boolean;
  readonly fixed?: unknown;
}

/** Renders a scripted reply in a wire format: status and JSON body. */
export type Renderer = (
  reply: Exclude<ScriptedReply, { kind: 'hang' }>,
  request: RecordedRequest,
) => { status: number; body: unknown };

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  response.writeHead(status, { ...headers, 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** Starts a scripted server for these routes, rendering replies with `render`. */
export async function startScriptedServer(
  routes: readonly Route[],
  render: Renderer,
): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const unexpected: string[] = [];
  const queue: ScriptedReply[] = [];
  const hanging = new Set<ServerResponse>();
  let fallbackReply: ReplyFunction | null = null;

  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      const recorded: RecordedRequest = {
        method: request.method ?? 'GET',
        path,
        headers: request.headers,
        body,
      };
      requests.push(recorded);
      const route = routes.find(
        (candidate) => candidate.method === recorded.method && candidate.path === path,
      );
      if (!route) {
        unexpected.push(`${recorded.method} ${path}`);
        send(response, 404, { error: `unexpected ${recorded.method} ${path}` });
        return;
      }
      if (!route.chat) {
        send(response, 200, route.fixed ?? {});
        return;
      }
      const reply = queue.shift() ?? fallbackReply?.(recorded);
      if (!reply) {
        unexpected.push(`${recorded.method} ${path} with nothing scripted`);
        send(response, 500, { error: { message: 'nothing scripted for this request' } });
        return;
      }
      if (reply.kind === 'hang') {
        hanging.add(response);
        response.on('close', () => hanging.delete(response));
        return;
      }
      const rendered = render(reply, recorded);
      send(response, rendered.status, rendered.body, reply.kind === 'error' ? reply.headers : {});
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${String(port)}`,
    requests,
    unexpected,
    script: (...replies) => queue.push(...replies),
    fallback: (reply) => {
      fallbackReply = reply;
    },
    pending: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Shorthands for scripts: reply.text('hi'), reply.call('fs_read', { path }), reply.error(500). */
export const reply = {
  text: (text: string): ScriptedReply => ({ kind: 'message', text }),
  call: (name: string, args: ScriptedToolCall['arguments'], id?: string): ScriptedReply => ({
    kind: 'message',
    toolCalls: [{ name, arguments: args, ...(id ? { id } : {}) }],
  }),
  calls: (...toolCalls: ScriptedToolCall[]): ScriptedReply => ({ kind: 'message', toolCalls }),
  error: (
    status: number,
    message?: string,
    headers?: Readonly<Record<string, string>>,
  ): ScriptedReply => ({
    kind: 'error',
    status,
    ...(message ? { message } : {}),
    ...(headers ? { headers } : {}),
  }),
  hang: (): ScriptedReply => ({ kind: 'hang' }),
};
