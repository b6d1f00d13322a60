// A CONNECT-only proxy on the loopback interface for a shell fetch that runs without a card
// (the `fetch` tier: `curl -fsSL https://… | grep …`). curl in the sandbox is pointed at it
// through https_proxy; each tunnel's host (and each redirect's, with -L) is checked as
// web_fetch checks a hop (checked-host.ts) and the tunnel goes to a checked address, so a name
// cannot rebind to a loopback, private or cloud-metadata address. Plain-http requests, which
// a proxy would have to fetch itself, are refused.
// node:http and node:net are loaded when a proxy starts, not when the module loads: a cold
// `custode hook` decides without them (see runtime/cli/quick-loader.cjs).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A running proxy: its URL for https_proxy, the hosts it refused and why, and close(). */
export interface FetchProxy {
  readonly url: string;
  readonly refusals: readonly string[];
  close(): Promise<void>;
}

/** The addresses a host may be reached at, or a throw whose message says why not. */
export type HostCheck = (host: string) => Promise<readonly string[]>;

// host:port, an IPv6 host in brackets.
const TARGET = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/;

function refuse(client: Socket, status: string, reason: string): void {
  const body = `custode: ${reason}\n`;
  client.end(
    `HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nContent-Length: ${String(Buffer.byteLength(body))}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** A connection to the first address that answers, or null. */
async function connectAny(addresses: readonly string[], port: number): Promise<Socket | null> {
  for (const address of addresses) {
    const socket = await new Promise<Socket | null>((resolve) => {
      const attempt = process.getBuiltinModule('node:net').connect({ host: address, port });
      attempt.once('connect', () => resolve(attempt));
      attempt.once('error', () => resolve(null));
    });
    if (socket !== null) return socket;
  }
  return null;
}

/** Start a proxy whose tunnels pass `check`; close() ends every tunnel. */
export async function startFetchProxy(check: HostCheck): Promise<FetchProxy> {
  const refusals: string[] = [];
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const tunnel = async (target: string, client: Socket, head: Buffer): Promise<void> => {
    const parsed = TARGET.exec(target);
    const host = (parsed?.[1] ?? parsed?.[2] ?? '').toLowerCase();
    if (parsed === null) return refuse(client, '400 Bad Request', `not a host:port: ${target}`);
    let addresses: readonly string[];
    try {
      addresses = await check(host);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      refusals.push(reason);
      return refuse(client, '403 Forbidden', reason);
    }
    const upstream = await connectAny(addresses, Number(parsed[3]));
    if (upstream === null) return refuse(client, '502 Bad Gateway', `${host} did not answer`);
    track(upstream);
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client).on('close', () => upstream.destroy());
    client.pipe(upstream).on('close', () => client.destroy());
  };
  const server = process
    .getBuiltinModule('node:http')
    .createServer((_request: IncomingMessage, response: ServerResponse) => {
      response.writeHead(405, { 'Content-Type': 'text/plain' });
      response.end('custode: only https URLs are fetched without a card\n');
    });
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    track(client);
    void tunnel(request.url ?? '', client, head);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    refusals,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
