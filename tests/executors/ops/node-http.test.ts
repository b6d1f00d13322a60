import { execa } from 'execa';
import { readFile } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHttpOps } from '../../../executors/ops/node-http.ts';
import { NetworkError } from '../../../runtime/errors.ts';
import { makeTempDir } from '../make-context.ts';
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

describe('createNodeHttpOps over TLS', () => {
  it('sends the URL host as SNI to the pinned address and refuses an untrusted certificate', async () => {
    const dir = await makeTempDir('tls-');
    await execa('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=pinned.test',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ]);
    const names: string[] = [];
    const tls = createHttpsServer(
      {
        key: await readFile(join(dir, 'key.pem')),
        cert: await readFile(join(dir, 'cert.pem')),
        SNICallback: (name, done) => {
          names.push(name);
          done(null, undefined);
        },
      },
      (_request, response) => response.end('secret page'),
    );
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    const { port } = tls.address() as AddressInfo;
    try {
      const attempt = createNodeHttpOps().get(new URL(`https://pinned.test:${String(port)}/`), {
        address: '127.0.0.1',
        maxBytes: 100,
        timeoutMs: 5000,
        signal: new AbortController().signal,
      });
      await expect(attempt).rejects.toThrow(/self[- ]signed/);
      await expect(attempt).rejects.toBeInstanceOf(NetworkError);
      expect(names).toContain('pinned.test');
    } finally {
      tls.closeAllConnections();
      await new Promise<void>((resolve) => tls.close(() => resolve()));
    }
  });
});
