// A local Socket Mode endpoint: the WebSocket Slack hands out from apps.connections.open. It
// says hello, answers the client's pings, records its acks, and can drop every connection at
// once (Slack going away). No WebSocket server library is installed (`ws` is not a
// dependency), so this speaks the little of RFC 6455 the test needs: the handshake, single
// unfragmented frames, text, ping/pong and close.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

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

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

function frame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const head =
    length < 126
      ? Buffer.from([0x80 | opcode, length])
      : Buffer.from([0x80 | opcode, 126, length >> 8, length & 0xff]);
  return Buffer.concat([head, payload]);
}

/** Whole client frames (always masked) at the start of `data`, and what is left over. */
function readFrames(data: Buffer): { frames: { opcode: number; payload: Buffer }[]; rest: Buffer } {
  const frames: { opcode: number; payload: Buffer }[] = [];
  let at = 0;
  for (;;) {
    if (data.length < at + 2) break;
    const opcode = (data[at] ?? 0) & 0x0f;
    let length = (data[at + 1] ?? 0) & 0x7f;
    let offset = at + 2;
    if (length === 126) {
      if (data.length < offset + 2) break;
      length = data.readUInt16BE(offset);
      offset += 2;
    }
    if (data.length < offset + 4 + length) break;
    const mask = data.subarray(offset, offset + 4);
    const payload = Buffer.from(data.subarray(offset + 4, offset + 4 + length));
    for (let i = 0; i < payload.length; i += 1) payload[i] = (payload[i] ?? 0) ^ (mask[i % 4] ?? 0);
    frames.push({ opcode, payload });
    at = offset + 4 + length;
  }
  return { frames, rest: data.subarray(at) };
}

/** Starts the endpoint on a free loopback port. */
export async function startSocketModeServer(): Promise<SocketModeServer> {
  const open = new Set<Duplex>();
  const acks: string[] = [];
  let count = 0;
  const server: Server = createServer((_request, response) => {
    response.writeHead(426).end();
  });
  server.on('upgrade', (request, socket: Duplex) => {
    const key = request.headers['sec-websocket-key'] ?? '';
    const accept = createHash('sha1').update(`${key}${GUID}`).digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    count += 1;
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => open.delete(socket));
    let buffered: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      const { frames, rest } = readFrames(Buffer.concat([buffered, chunk]));
      buffered = rest;
      for (const { opcode, payload } of frames) {
        if (opcode === 0x9) socket.write(frame(0xa, payload));
        if (opcode === 0x8) socket.end(frame(0x8, Buffer.alloc(0)));
        if (opcode === 0x1) {
          const id = (JSON.parse(payload.toString('utf8')) as { envelope_id?: unknown })
            .envelope_id;
          if (typeof id === 'string') acks.push(id);
        }
      }
    });
    socket.write(frame(0x1, Buffer.from(JSON.stringify({ type: 'hello', num_connections: 1 }))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    url: `ws://127.0.0.1:${String(address.port)}/link`,
    opened: () => count,
    acks,
    send(envelope) {
      const data = frame(0x1, Buffer.from(JSON.stringify(envelope)));
      for (const socket of open) socket.write(data);
    },
    drop() {
      for (const socket of open) socket.destroy();
      open.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
