import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webFetch } from '../../../executors/web-fetch.ts';
import {
  DomainNotAllowed,
  ExecutorTimeout,
  InvalidArguments,
  NetworkError,
} from '../../../runtime/errors.ts';
import { makeContext } from '../make-context.ts';
import { startLocalServer, type LocalServer } from './local-server.ts';

let server: LocalServer;
let base: string;

beforeAll(async () => {
  server = await startLocalServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    switch (url.pathname) {
      case '/page':
        response.setHeader('content-type', 'text/html; charset=utf-8');
        response.end(
          '<html><head><style>p{}</style><script>var x=1</script></head><body><h2>News</h2><p>First <b>para</b> with a <a href="/x">link</a>.</p></body></html>',
        );
        break;
      case '/plain':
        response.setHeader('content-type', 'text/plain');
        response.end('just text');
        break;
      case '/big':
        response.setHeader('content-type', 'text/plain');
        response.end('b'.repeat(100_000));
        break;
      case '/hang':
        response.flushHeaders();
        break;
      case '/redirect':
        response.statusCode = 302;
        response.setHeader('location', url.searchParams.get('to') ?? '/plain');
        response.end();
        break;
      case '/loop':
        response.statusCode = 301;
        response.setHeader('location', '/loop');
        response.end();
        break;
      default:
        response.statusCode = 404;
        response.end('no such page');
    }
  });
  base = `http://127.0.0.1:${String(server.port)}`;
});
afterAll(() => server.close());

const loopbackAllowed = { web: { private_allowlist: ['127.0.0.1'] } };

describe('web_fetch address policy', () => {
  it('refuses loopback by default, naming the range and the fix, without connecting', async () => {
    const before = server.requests.length;
    const ctx = await makeContext();
    const attempt = webFetch.run({ url: `${base}/plain` }, ctx);
    await expect(attempt).rejects.toBeInstanceOf(DomainNotAllowed);
    await expect(attempt).rejects.toThrow(/loopback.*private_allowlist/);
    await expect(
      webFetch.run({ url: `http://localhost:${String(server.port)}/plain` }, ctx),
    ).rejects.toBeInstanceOf(DomainNotAllowed);
    expect(server.requests.length).toBe(before);
  });

  it('refuses cloud metadata, private, unique-local and unspecified literals', async () => {
    const ctx = await makeContext();
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/',
      'http://192.168.1.1/',
      'http://[fd00::1]/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://0.0.0.0/',
    ]) {
      await expect(webFetch.run({ url }, ctx), url).rejects.toBeInstanceOf(DomainNotAllowed);
    }
  });

  it('fetches loopback once allowlisted by address, CIDR or host name', async () => {
    for (const entry of ['127.0.0.1', '127.0.0.0/8', 'localhost']) {
      const ctx = await makeContext({ web: { private_allowlist: [entry] } });
      const host = entry === 'localhost' ? 'localhost' : '127.0.0.1';
      const result = await webFetch.run(
        { url: `http://${host}:${String(server.port)}/plain` },
        ctx,
      );
      expect(result, entry).toMatchObject({ status: 200, text: 'just text', truncated: false });
    }
  });

  it('re-checks every redirect hop and refuses one that lands on a private address', async () => {
    const ctx = await makeContext({ web: { private_allowlist: ['localhost'] } });
    const target = encodeURIComponent(`${base}/plain?hop=private`);
    const attempt = webFetch.run(
      { url: `http://localhost:${String(server.port)}/redirect?to=${target}` },
      ctx,
    );
    await expect(attempt).rejects.toBeInstanceOf(DomainNotAllowed);
    await expect(attempt).rejects.toThrow(/127\.0\.0\.1/);
    // The first hop was fetched; the second never left the process.
    expect(server.requests.some((r) => r.path.startsWith('/redirect?to='))).toBe(true);
    expect(server.requests.some((r) => r.path === '/plain?hop=private')).toBe(false);
  });

  it('follows allowed redirects to the final URL and stops after max_redirects', async () => {
    const ctx = await makeContext({ web: { private_allowlist: ['127.0.0.1'], max_redirects: 3 } });
    const result = await webFetch.run({ url: `${base}/redirect?to=/plain` }, ctx);
    expect(result).toMatchObject({ url: `${base}/plain`, status: 200, text: 'just text' });
    await expect(webFetch.run({ url: `${base}/loop` }, ctx)).rejects.toBeInstanceOf(NetworkError);
  });

  it('applies the domain allowlist (exact host or *.suffix) before resolving', async () => {
    const refused = await makeContext({
      web: { ...loopbackAllowed.web, domain_allowlist: ['*.example.com'] },
    });
    await expect(webFetch.run({ url: `${base}/plain` }, refused)).rejects.toThrow(
      /domain_allowlist/,
    );
    const allowed = await makeContext({
      web: { ...loopbackAllowed.web, domain_allowlist: ['127.0.0.1'] },
    });
    expect((await webFetch.run({ url: `${base}/plain` }, allowed)).text).toBe('just text');
  });

  it('refuses non-http schemes and malformed URLs as invalid arguments', async () => {
    const ctx = await makeContext(loopbackAllowed);
    for (const url of [
      'file:///etc/passwd',
      'ftp://127.0.0.1/',
      'javascript:alert(1)',
      'not a url',
    ]) {
      await expect(webFetch.run({ url }, ctx), url).rejects.toBeInstanceOf(InvalidArguments);
    }
  });
});

describe('web_fetch content', () => {
  it('turns HTML into readable text without markup, scripts or styles', async () => {
    const ctx = await makeContext(loopbackAllowed);
    const result = await webFetch.run({ url: `${base}/page` }, ctx);
    expect(result.content_type).toMatch(/^text\/html/);
    expect(result.text).toContain('First para with a link.');
    expect(result.text).toMatch(/news/i);
    expect(result.text).not.toMatch(/<|var x|p\{\}/);
  });

  it('reports the status of an error page as a result', async () => {
    const ctx = await makeContext(loopbackAllowed);
    expect(await webFetch.run({ url: `${base}/missing` }, ctx)).toMatchObject({
      status: 404,
      text: 'no such page',
    });
  });

  it('cuts the body at max_bytes, itself capped by the config', async () => {
    const ctx = await makeContext({ web: { private_allowlist: ['127.0.0.1'], max_bytes: 500 } });
    const small = await webFetch.run({ url: `${base}/big`, max_bytes: 10 }, ctx);
    expect(small).toMatchObject({ text: 'b'.repeat(10), truncated: true });
    const capped = await webFetch.run({ url: `${base}/big`, max_bytes: 1_000_000 }, ctx);
    expect(capped).toMatchObject({ text: 'b'.repeat(500), truncated: true });
  });

  it('gives up with ExecutorTimeout on a server that never finishes', async () => {
    const ctx = await makeContext(loopbackAllowed);
    await expect(
      webFetch.run({ url: `${base}/hang`, timeout_ms: 200 }, ctx),
    ).rejects.toBeInstanceOf(ExecutorTimeout);
  });
});
