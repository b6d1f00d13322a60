// The turn log: every step with its verdict, versioned lines, retention, the readable view,
// and sinks that fail without blocking a decision.
import { readFile, writeFile, readdir, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../runtime/app.ts';
import { defaultConfig } from '../../runtime/config.ts';
import { createOfflineClient } from '../../runtime/llm/offline.ts';
import { createLogger } from '../../runtime/log/logger.ts';
import {
  formatRecentTurns,
  pruneTurnLogs,
  turnLogDir,
  turnRecordSchema,
} from '../../runtime/log/turn-log.ts';
import { monthKey } from '../../runtime/paths.ts';
import { fanOut } from '../../runtime/planner/events.ts';
import { createRecordingSink, says, startApp } from './harness.ts';

let app: App | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('turn log', () => {
  it('records the turn, each step with its verdict, and the end, as valid v1 lines', async () => {
    app = await startApp(createOfflineClient());
    await app.service.handleMessage(says('/read ~/.ssh/id_rsa'), createRecordingSink());
    await app.turnLog.flush();
    const text = await readFile(join(turnLogDir(app.env), `${monthKey()}.jsonl`), 'utf8');
    const records = text
      .trim()
      .split('\n')
      .map((line) => turnRecordSchema.parse(JSON.parse(line)));
    expect(records.map((record) => record.type)).toEqual(['turn_started', 'step', 'turn_ended']);
    const step = records[1];
    expect(step).toMatchObject({
      v: 1,
      executor: 'fs_read',
      decision: 'deny',
      args: { path: '~/.ssh/id_rsa' },
    });
    expect(step?.type === 'step' && step.verdict?.approved).toBe(false);
    const view = await formatRecentTurns(5, defaultConfig(), app.env);
    expect(view).toContain('"/read ~/.ssh/id_rsa"');
    expect(view).toContain('fs_read {"path":"~/.ssh/id_rsa"} -> deny');
  });

  it('shows the turns around a torn line and says which line it skipped', async () => {
    app = await startApp(createOfflineClient());
    await app.service.handleMessage(says('/read ~/.ssh/id_rsa'), createRecordingSink());
    await app.turnLog.flush();
    const file = join(turnLogDir(app.env), `${monthKey()}.jsonl`);
    const lines = (await readFile(file, 'utf8')).split('\n').filter((line) => line !== '');
    await writeFile(file, [lines[0], '{"v":1,"ts":"20', ...lines.slice(1)].join('\n') + '\n');
    const view = await formatRecentTurns(5, defaultConfig(), app.env);
    expect(view).toContain(`(1 unreadable line(s) skipped: ${monthKey()}.jsonl:2)`);
    expect(view).toContain('fs_read {"path":"~/.ssh/id_rsa"} -> deny');
  });

  it('rejects lines without a version or with a wrong shape', () => {
    const good = {
      v: 1,
      ts: new Date().toISOString(),
      turn_id: 't',
      channel: 'local',
      chat_id: 'c',
      type: 'turn_ended',
      outcome: 'answered',
      steps: 1,
    };
    expect(turnRecordSchema.safeParse(good).success).toBe(true);
    expect(turnRecordSchema.safeParse({ ...good, v: 2 }).success).toBe(false);
    expect(turnRecordSchema.safeParse({ ...good, outcome: 'exploded' }).success).toBe(false);
  });

  it('prunes months past the retention and old lines of the boundary month', async () => {
    const dir = join(turnLogDir(process.env), '..', 'turns-prune');
    await mkdir(dir, { recursive: true });
    const line = (ts: string) =>
      `${JSON.stringify({ v: 1, ts, turn_id: ts, channel: 'local', chat_id: 'c', type: 'turn_ended', outcome: 'answered', steps: 0 })}\n`;
    await writeFile(join(dir, '2026-01.jsonl'), line('2026-01-05T00:00:00.000Z'));
    await writeFile(
      join(dir, '2026-03.jsonl'),
      line('2026-03-01T00:00:00.000Z') + line('2026-03-20T00:00:00.000Z'),
    );
    await pruneTurnLogs(dir, 30, new Date('2026-04-10T00:00:00.000Z'));
    expect(await readdir(dir)).toEqual(['2026-03.jsonl']);
    expect(await readFile(join(dir, '2026-03.jsonl'), 'utf8')).toBe(
      line('2026-03-20T00:00:00.000Z'),
    );
  });

  it('a sink that throws is logged and the other sinks still get the event', () => {
    const seen: string[] = [];
    const emit = fanOut(
      [
        () => {
          throw new Error('broken sink');
        },
        () => Promise.reject(new Error('broken async sink')),
        (event) => {
          seen.push(event.type);
        },
      ],
      createLogger(),
    );
    emit({ type: 'model_call', turn_id: 't', channel: 'local', chat_id: 'c', step: 1 });
    expect(seen).toEqual(['model_call']);
  });
});
