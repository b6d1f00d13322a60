// Documents and photos sent to the bot: saved in the inbox inside roots.write under a safe name,
// capped in size, and handed to the model as a path. The emulator has no getFile or file
// download, so a small proxy in front of it serves those two (the network edge); everything
// else goes through to telegram-test-api.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { safeFileName } from '../../../runtime/inbox.ts';
import { startTestDaemon, type TestDaemon } from './daemon.ts';
import { startEmulator, type Emulator } from './emulator.ts';

let emulator: Emulator;
let proxy: Server;
let proxyRoot: string;
let running: TestDaemon | undefined;
const files = new Map<string, string>();
const home = process.env.HOME ?? '';
const inbox = join(home, 'custode-inbox');

beforeEach(async () => {
  await rm(inbox, { recursive: true, force: true });
  emulator = await startEmulator();
  proxy = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const url = request.url ?? '';
      const download = /^\/file\/bot[^/]+\/docs\/(.+)$/.exec(url);
      if (download !== null) {
        response.end(files.get(decodeURIComponent(download[1] ?? '')) ?? '');
        return;
      }
      if (/^\/bot[^/]+\/getFile$/.test(url)) {
        const { file_id: id } = JSON.parse(body) as { file_id: string };
        response.setHeader('content-type', 'application/json');
        response.end(
          JSON.stringify({
            ok: true,
            result: { file_id: id, file_unique_id: id, file_path: `docs/${id}` },
          }),
        );
        return;
      }
      void fetch(`${emulator.apiRoot}${url}`, {
        method: request.method ?? 'GET',
        headers: { 'content-type': request.headers['content-type'] ?? 'application/json' },
        ...(request.method === 'POST' ? { body } : {}),
      }).then(async (answer) => {
        response.writeHead(answer.status, { 'content-type': 'application/json' });
        response.end(await answer.text());
      });
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyRoot = `http://127.0.0.1:${String((proxy.address() as AddressInfo).port)}`;
});
afterEach(async () => {
  await running?.stop();
  running = undefined;
  proxy.close();
  await emulator.stop();
});

async function start(maxBytes = 1000): Promise<TestDaemon> {
  const root = await mkdtemp(join(home, 'tg-files-'));
  running = await startTestDaemon(emulator, root, {
    apiRoot: proxyRoot,
    config: { channels: { telegram: { inbox_max_bytes: maxBytes } } },
  });
  return running;
}

const inboxFiles = (): Promise<string[]> => readdir(inbox).catch(() => []);

describe('telegram attachments', () => {
  it('saves a document under a safe name in the inbox and gives the model its path after the caption', async () => {
    const daemon = await start();
    files.set('doc1', 'quarterly numbers\n');
    const user = emulator.client(1);
    const message = user.makeMessage('', {
      caption: 'what is in it?',
      document: {
        file_id: 'doc1',
        file_unique_id: 'doc1',
        file_name: '../../.bashrc report (v2).txt',
        mime_type: 'text/plain',
      },
    }) as { text?: string };
    delete message.text;
    await user.sendMessage(message as Parameters<typeof user.sendMessage>[0]);
    const [saved] = await emulator.waitForBot(1, (ms) =>
      ms.some((m) => m.text.startsWith('Saved to')),
    );
    const names = await inboxFiles();
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-bashrc_report_v2_.txt$/);
    const path = join(inbox, names[0] ?? '');
    expect(saved?.text).toBe(`Saved to ${path}.`);
    expect(await readFile(path, 'utf8')).toBe('quarterly numbers\n');
    await emulator.waitForBot(1, () => daemon.modelTexts().length === 1);
    expect(daemon.modelTexts()).toEqual([
      `what is in it?\n[I sent a file: it is saved at ${path} (18 bytes, text/plain)]`,
    ]);
  });

  it('refuses a file over the size limit, by its declared size or by what arrives, saving nothing', async () => {
    const daemon = await start(10);
    files.set('big', 'x'.repeat(50));
    const user = emulator.client(1);
    for (const document of [
      { file_id: 'declared', file_unique_id: 'd', file_name: 'a.bin', file_size: 5000 },
      { file_id: 'big', file_unique_id: 'b', file_name: 'b.bin' },
    ]) {
      const message = user.makeMessage('', { document }) as { text?: string };
      delete message.text;
      await user.sendMessage(message as Parameters<typeof user.sendMessage>[0]);
    }
    const replies = await emulator.waitForBot(
      1,
      (ms) => ms.filter((m) => m.text.includes('too big')).length === 2,
    );
    expect(replies.map((m) => m.text)).toContain(
      'That file is too big for me (0.0 MB; I save files up to 0.0 MB). Nothing was saved.',
    );
    expect(await inboxFiles()).toEqual([]);
    expect(daemon.modelCalls()).toBe(0);
  });

  it('saves the largest size of a photo', async () => {
    await start();
    files.set('large', 'JPEGDATA');
    const user = emulator.client(1);
    const message = user.makeMessage('', {
      photo: [
        { file_id: 'small', file_unique_id: 's', width: 90, height: 90 },
        { file_id: 'large', file_unique_id: 'L', width: 800, height: 800 },
      ],
    }) as { text?: string };
    delete message.text;
    await user.sendMessage(message as Parameters<typeof user.sendMessage>[0]);
    await emulator.waitForBot(1, (ms) => ms.some((m) => m.text.startsWith('Saved to')));
    const names = await inboxFiles();
    expect(names[0]).toMatch(/-photo-L\.jpg$/);
    expect(await readFile(join(inbox, names[0] ?? ''), 'utf8')).toBe('JPEGDATA');
  });
});

describe('safeFileName', () => {
  it('keeps letters, digits, dot, dash and underscore; no path, no leading dot, bounded', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('..')).toBe('file');
    expect(safeFileName('.env')).toBe('env');
    expect(safeFileName('C:\\Users\\me\\notes $(rm -rf).md')).toBe('notes_rm_-rf_.md');
    expect(safeFileName('café.txt')).toBe('cafe_.txt');
    const long = safeFileName(`${'a'.repeat(200)}.pdf`);
    expect(long).toHaveLength(80);
    expect(long.endsWith('.pdf')).toBe(true);
  });
});
