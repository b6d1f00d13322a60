// A pending card whose saved file is damaged is not skipped without a word: the expiry
// sweep sets it aside and tells its chat that nothing from it will run; the chat is free
// again. Real app and approval store; the damage is an edit of the card's file on disk.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../runtime/app.ts';
import { createOfflineClient } from '../../runtime/llm/offline.ts';
import { createRecordingSink, freshStateHome, says, startApp } from './harness.ts';

let app: App | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const damagedText =
  'A card waiting in this chat could not be read back (its saved file is damaged), so it was cancelled and nothing from it will run. Ask again if you still want it.';

describe('a damaged pending card', () => {
  it('is set aside by the sweep and its chat is told; the chat is free again', async () => {
    const stateHome = freshStateHome();
    app = await startApp(createOfflineClient(), {}, stateHome);
    const sink = createRecordingSink();
    await app.service.handleMessage(says('/write ~/damaged.txt hi'), sink);
    const [pending] = sink.approvals();
    const dir = join(stateHome, 'custode', 'approvals');
    const file = join(dir, `${pending?.approvalId ?? ''}.json`);
    const record = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...record, card: { headline: 42 } }));

    expect(await app.service.expireDue()).toBe(0);
    expect(sink.texts()).toEqual([damagedText]);
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(dir)).toContain(`${pending?.approvalId ?? ''}.json.damaged`);
    // Told once: the next sweep finds nothing left to tell.
    await app.service.expireDue();
    expect(sink.texts()).toHaveLength(1);
    await app.service.handleMessage(says('/help'), sink);
    expect(sink.texts().at(-1)).toContain('Commands:');
  });

  it('set aside without a chat to tell when the file is not JSON at all', async () => {
    const stateHome = freshStateHome();
    app = await startApp(createOfflineClient(), {}, stateHome);
    const sink = createRecordingSink();
    await app.service.handleMessage(says('/write ~/garbled.txt hi'), sink);
    const [pending] = sink.approvals();
    const file = join(stateHome, 'custode', 'approvals', `${pending?.approvalId ?? ''}.json`);
    writeFileSync(file, '{"v":1,"id":');
    await app.service.expireDue();
    expect(sink.texts()).toEqual([]);
    expect(existsSync(`${file}.damaged`)).toBe(true);
  });
});
