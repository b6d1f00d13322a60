// A real HTTP server on the loopback interface (both families) for web_fetch tests.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running local server and what it has been asked. */
export interface LocalServer {
  readonly port: number;
  /** Request paths and Host headers, in arrival order. */
  readonly requests: { path: string; host: string }[];
  close(): Promise<void>;
}

/** Start a server answering with `handler`; it listens on `::` so localhost works on either family. */
export async function startLocalServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<LocalServer> {
  const requests: { path: string; host: string }[] = [];
  const server = createServer((request, response) => {
    requests.push({ path: request.url ?? '', host: request.headers.host ?? '' });
    handler(request, response);
  });
  await new Promise<void>((resolve) =>
    server.listen({ port: 0, host: '::', ipv6Only: false }, resolve),
  );
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
