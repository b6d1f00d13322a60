import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHttpOps } from '../../../executors/ops/node-http.ts';
import { NetworkError } from '../../../runtime/errors.ts';
import { startLocalServer, type LocalServer } from '../web/local-server.ts';

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer((request, response) => {
    response.setHeader('set-cookie', ['a=1', 'b=2']);
    response.end(`you asked for ${request.headers.host ?? ''}`);
  });
});
afterAll(() => server.close());

describe('createNodeHttpOps', () => {
  it('connects to the pinned address while Host names the URL host (no second DNS lookup)', async () => {
    const ops = createNodeHttpOps();
    const url = new URL(`http://pinned.invalid:${String(server.port)}/path`);
    const response = await ops.get(url, {
      address: '127.0.0.1',
      maxBytes: 1000,
      timeoutMs: 5000,
      signal: new AbortController().signal,
    });
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe(`you asked for pinned.invalid:${String(server.port)}`);
    expect(response.headers['set-cookie']).toBe('a=1, b=2');
    expect(server.requests.at(-1)).toEqual({
      path: '/path',
      host: `pinned.invalid:${String(server.port)}`,
    });
  });

  it('resolves literals to themselves and unknown names to a NetworkError', async () => {
    const ops = createNodeHttpOps();
    expect(await ops.lookup('127.0.0.1')).toEqual(['127.0.0.1']);
    expect(await ops.lookup('::1')).toEqual(['::1']);
    await expect(ops.lookup('no-such-host.invalid')).rejects.toBeInstanceOf(NetworkError);
  });

  it('reports a refused connection as a NetworkError', async () => {
    const ops = createNodeHttpOps();
    const closed = await startLocalServer(() => undefined);
    await closed.close();
    await expect(
      ops.get(new URL(`http://127.0.0.1:${String(closed.port)}/`), {
        address: '127.0.0.1',
        maxBytes: 10,
        timeoutMs: 5000,
        signal: new AbortController().signal,
      }),
    ).rejects.toBeInstanceOf(NetworkError);
  });
});
