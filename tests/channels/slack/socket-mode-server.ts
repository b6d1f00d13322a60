// A local Socket Mode endpoint: the WebSocket Slack hands out from apps.connections.open. It
// says hello, records the client's acks, and can drop every connection at once (Slack going
// away). A real WebSocket server (`ws`) answers the protocol, pings included.
import { WebSocketServer, type WebSocket } from 'ws';

export interface SocketModeServer {
  /** The wss-style URL apps.connections.open answers with (ws://127.0.0.1:…). */
  readonly url: string;
  /** Connections opened so far. */
  opened(): number;
  /** Envelope ids the client acknowledged. */
  readonly acks: string[];
  /** Sends a Socket Mode envelope on every open connection. */
  send(envelope: Record<string, unknown>): void;
  /** Cuts every open connection without a close frame. */
  drop(): void;
  close(): Promise<void>;
}

function envelopeId(data: unknown): string | undefined {
  try {
    const id = (JSON.parse(String(data)) as { envelope_id?: unknown }).envelope_id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Starts the endpoint on a free loopback port. */
export async function startSocketModeServer(): Promise<SocketModeServer> {
  const acks: string[] = [];
  let count = 0;
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  server.on('connection', (socket: WebSocket) => {
    count += 1;
    socket.on('message', (data) => {
      const id = envelopeId(data);
      if (id !== undefined) acks.push(id);
    });
    socket.send(JSON.stringify({ type: 'hello', num_connections: 1 }));
  });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    url: `ws://127.0.0.1:${String(address.port)}/link`,
    opened: () => count,
    acks,
    send(envelope) {
      for (const socket of server.clients) socket.send(JSON.stringify(envelope));
    },
    drop() {
      for (const socket of server.clients) socket.terminate();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of server.clients) socket.terminate();
        server.close(() => resolve());
      }),
  };
}
