// `curl -fsSL https://… | grep …` runs without a card, like web_fetch: the sandbox reaches the
// network only through Custode's proxy, which checks each host as web_fetch checks a hop and
// connects to the address it checked. Anything that sends data, writes, or routes elsewhere asks.
import { once } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFetchProxy } from '../../executors/web/fetch-proxy.ts';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { hasProgram } from '../helpers/tools.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

/** A TCP server that counts connections and echoes what it gets. */
let server: Server;
let port: number;
let connections = 0;

beforeAll(async () => {
  server = createServer((socket: Socket) => {
    connections += 1;
    socket.on('data', (data) => socket.write(data));
    socket.on('error', () => socket.destroy());
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  port = typeof address === 'object' && address !== null ? address.port : 0;
});
afterAll(() => server.close());

describe('the fetch tier decides', () => {
  let pipeline: Pipeline;
  beforeAll(async () => {
    pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
  });
  afterAll(() => pipeline.close());

  const decide = (command: string): Promise<PipelineOutcome> =>
    pipeline.evaluate(call('shell_exec', { command }, 'what is the latest release?'));

  it('lets a plain GET of an https URL run without a card, through the proxy', async () => {
    for (const command of [
      'curl -s https://api.github.com/repos/nodejs/node/releases/latest | grep tag_name',
      'curl -fsSL --max-time 10 https://example.com/data.json',
      'curl -sI https://example.com/ | head -5',
    ]) {
      const outcome = await decide(command);
      expect(outcome, command).toMatchObject({ decision: 'allow', reason: 'fetch: curl' });
      expect(outcome.decision === 'allow' && outcome.grant).toMatchObject({ viaProxy: true });
    }
  });

  it('asks for anything that sends, writes, reads a config or routes elsewhere', async () => {
    for (const command of [
      'curl -s http://example.com/',
      'curl -s -d @notes.txt https://example.com/',
      'curl -s -X POST https://example.com/',
      'curl -s -H "Authorization: Bearer x" https://example.com/',
      'curl -s https://example.com/ > page.html',
      'curl -s https://example.com/ | tee page.html',
      'curl -K cfg https://example.com/',
      'curl -q https://example.com/',
      "curl --noproxy '*' https://example.com/",
      'curl --proxy http://elsewhere:8080 https://example.com/',
      'curl --resolve example.com:443:127.0.0.1 https://example.com/',
      'curl -s https://user:pass@example.com/',
      'curl -s https://example.com/[1-9].txt',
      'curl -s https://example.com/ https://example.org/',
      'curl -s https://example.com/; ls',
      'curl -s "$URL"',
      'grep x notes.txt | curl -s https://example.com/',
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });
});

describe('a download to a new file', () => {
  let pipeline: Pipeline;
  let dir: string;
  beforeAll(async () => {
    pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
    dir = await makeTempDir('downloads-');
    await writeFile(join(dir, 'kept.html'), 'the only copy');
  });
  afterAll(() => pipeline.close());

  const decide = (command: string): Promise<PipelineOutcome> =>
    pipeline.evaluate(call('shell_exec', { command, cwd: dir }, 'download the manual'));

  it('runs without a card, may write only its directory, and is recorded as unreviewed', async () => {
    for (const command of [
      `curl -L -o ${dir}/manual.html https://jqlang.org/manual/`,
      'curl -fsSLo manual.html https://jqlang.org/manual/',
      'curl --output manual.html https://jqlang.org/manual/',
    ]) {
      const outcome = await decide(command);
      expect(outcome, command).toMatchObject({ decision: 'allow', reason: 'fetch: curl -o' });
      expect(outcome.decision === 'allow' && outcome.grant, command).toMatchObject({
        viaProxy: true,
        writable: [dir],
        records: [join(dir, 'manual.html')],
        replaces: false,
      });
    }
  });

  it('asks when the file exists, is hidden or protected, or its spelling is not plain', async () => {
    for (const command of [
      'curl -s -o kept.html https://example.com/',
      'curl -s -o ~/.bashrc https://example.com/',
      'curl -s -o .envrc https://example.com/',
      'curl -s -o ~/bin/tool https://example.com/',
      'curl -s -o a.html -o b.html https://example.com/',
      'curl -s -o a.html --output b.html https://example.com/',
      'curl -s --output=~/x.html https://example.com/',
      'curl -s -o~/x.html https://example.com/',
      'curl -s -o - https://example.com/',
      'curl -s --create-dirs -o new/x.html https://example.com/',
      'curl -s -o page.html https://example.com/ | cat',
      'curl -s -o page.html http://example.com/',
      'curl -s -o ~root/x https://example.com/',
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
    expect(await readFile(join(dir, 'kept.html'), 'utf8')).toBe('the only copy');
  });
});

describe('the checking proxy', () => {
  async function connectThrough(url: string, target: string): Promise<number> {
    const req = request(`${url}`, { method: 'CONNECT', path: target });
    req.end();
    const [response, socket] = (await once(req, 'connect')) as [{ statusCode: number }, Socket];
    socket.destroy();
    return response.statusCode;
  }

  it('tunnels to the address its check returned, and refuses what the check refuses', async () => {
    const proxy = await startFetchProxy(async (host) => {
      if (host === 'allowed.example') return ['127.0.0.1'];
      throw new Error(`${host} is refused`);
    });
    try {
      const before = connections;
      expect(await connectThrough(proxy.url, `allowed.example:${String(port)}`)).toBe(200);
      expect(connections).toBe(before + 1);
      expect(await connectThrough(proxy.url, `127.0.0.1:${String(port)}`)).toBe(403);
      expect(connections).toBe(before + 1);
      expect(proxy.refusals).toEqual(['127.0.0.1 is refused']);
    } finally {
      await proxy.close();
    }
  });
});

describe.skipIf(!hasProgram('curl'))('a real sandboxed fetch (needs curl)', () => {
  async function run(config: object, url: string): Promise<{ note?: string }> {
    const pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] }, ...config });
    try {
      const outcome = await pipeline.evaluate(
        call('shell_exec', { command: `curl -s --max-time 5 ${url}` }, 'fetch it'),
      );
      expect(outcome).toMatchObject({ decision: 'allow', reason: 'fetch: curl' });
      const result = await pipeline.invoke(outcome, new AbortController().signal);
      return result.ok ? (result.result as { note?: string }) : {};
    } finally {
      pipeline.close();
    }
  }

  it('refuses a name that resolves to a loopback address, and reaches nothing', async () => {
    const before = connections;
    const result = await run({}, `https://localhost:${String(port)}/`);
    expect(result.note).toMatch(/The fetch was refused: localhost resolves to .*non-public/);
    expect(connections).toBe(before);
  });

  it('reaches an address web.private_allowlist admits, through the proxy', async () => {
    const before = connections;
    await run({ web: { private_allowlist: ['localhost'] } }, `https://localhost:${String(port)}/`);
    // The echo server is no TLS server: curl fails its handshake, after the tunnel reached it.
    expect(connections).toBe(before + 1);
  });
});
