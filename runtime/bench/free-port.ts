// A free TCP port on 127.0.0.1, for local stand-ins (the Telegram emulator, Bolt's receiver).
import { createServer } from 'node:net';

/** Asks the OS for a free port, then releases it for the caller to bind. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}
