// GET http://127.0.0.1:<health.port>/healthz: 200 when no channel is failing, 503 with the
// failing runs otherwise; the body is the health record as JSON. Loopback only: it names
// channels and errors, nothing for the network.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { Logger } from '../log/logger.ts';
import { failingLines, type ChannelHealth } from './channel-health.ts';

export interface HealthzServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Serves /healthz on 127.0.0.1:`port` until closed. */
export async function startHealthz(
  port: number,
  health: ChannelHealth,
  logger: Logger,
): Promise<HealthzServer> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || (request.url ?? '').split('?')[0] !== '/healthz') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    const record = health.snapshot();
    const failing = failingLines(record);
    response
      .writeHead(failing.length === 0 ? 200 : 503, { 'content-type': 'application/json' })
      .end(`${JSON.stringify({ ok: failing.length === 0, failing, ...record })}\n`);
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  logger.info({ port }, 'health endpoint listening on 127.0.0.1 (/healthz)');
  return {
    url: `http://127.0.0.1:${String(port)}/healthz`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
