// Which turns a crash cut short, read from a real turn log file: a start with no end after
// its last line, recent enough; what had run is the allowed steps only.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unfinishedTurns } from '../../runtime/log/unfinished-turns.ts';

const ref = (turn: string, ts: string) => ({
  v: 1,
  ts,
  turn_id: turn,
  channel: 'telegram',
  chat_id: '7',
});
const started = (turn: string, ts: string, intent: string) => ({
  ...ref(turn, ts),
  type: 'turn_started',
  sender: 'telegram:7',
  intent,
  mode: 'multistep',
});
const step = (turn: string, ts: string, decision: string, path: string) => ({
  ...ref(turn, ts),
  type: 'step',
  step: 1,
  executor: 'fs_write',
  args: { path, content: 'x' },
  decision,
  reason: '',
  duration_ms: 1,
  observation_bytes: 2,
});
const ended = (turn: string, ts: string, outcome: string) => ({
  ...ref(turn, ts),
  type: 'turn_ended',
  outcome,
  steps: 1,
});

describe('unfinished turns', () => {
  it('finds a recent turn with no end, with the calls that ran, and nothing else', async () => {
    const state = mkdtempSync(join(process.env.HOME ?? '', 'turns-'));
    mkdirSync(join(state, 'custode', 'turns'), { recursive: true });
    const lines = [
      started('old', '2026-11-01T10:00:00.000Z', 'long ago'),
      step('old', '2026-11-01T10:00:01.000Z', 'allow', '~/old.txt'),
      started('done', '2026-11-23T10:00:00.000Z', 'finished'),
      ended('done', '2026-11-23T10:00:02.000Z', 'answered'),
      started('parked', '2026-11-23T10:01:00.000Z', 'waits on a card'),
      ended('parked', '2026-11-23T10:01:01.000Z', 'waiting'),
      started('cut', '2026-11-23T10:02:00.000Z', 'write two files'),
      step('cut', '2026-11-23T10:02:01.000Z', 'allow', '~/a.txt'),
      step('cut', '2026-11-23T10:02:02.000Z', 'deny', '~/.ssh/b'),
    ];
    writeFileSync(
      join(state, 'custode', 'turns', '2026-11.jsonl'),
      `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`,
    );
    const turns = await unfinishedTurns(
      { XDG_STATE_HOME: state },
      new Date('2026-11-22T10:00:00.000Z'),
    );
    expect(turns).toEqual([
      {
        turnId: 'cut',
        channel: 'telegram',
        chatId: '7',
        intent: 'write two files',
        lastSeen: '2026-11-23T10:02:02.000Z',
        ran: ['fs_write ~/a.txt'],
      },
    ]);
  });

  it('names the allowed call a crash cut after its press; a denial or a finished call names none', async () => {
    const state = mkdtempSync(join(process.env.HOME ?? '', 'turns-'));
    mkdirSync(join(state, 'custode', 'turns'), { recursive: true });
    const resumed = (turn: string, ts: string, answer: string) => ({
      ...ref(turn, ts),
      type: 'turn_resumed',
      answer,
      by: 'telegram:7',
      executor: 'fs_write',
      args: { path: '~/approved.txt', content: 'x' },
    });
    const lines = [
      started('allowed', '2026-11-23T10:00:00.000Z', 'write it'),
      ended('allowed', '2026-11-23T10:00:01.000Z', 'waiting'),
      resumed('allowed', '2026-11-23T10:00:05.000Z', 'once'),
      started('denied', '2026-11-23T10:01:00.000Z', 'write that'),
      ended('denied', '2026-11-23T10:01:01.000Z', 'waiting'),
      resumed('denied', '2026-11-23T10:01:05.000Z', 'deny'),
      started('ran', '2026-11-23T10:02:00.000Z', 'write this'),
      ended('ran', '2026-11-23T10:02:01.000Z', 'waiting'),
      resumed('ran', '2026-11-23T10:02:05.000Z', 'always'),
      step('ran', '2026-11-23T10:02:06.000Z', 'allow', '~/approved.txt'),
    ];
    writeFileSync(
      join(state, 'custode', 'turns', '2026-11.jsonl'),
      `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`,
    );
    const turns = await unfinishedTurns(
      { XDG_STATE_HOME: state },
      new Date('2026-11-22T10:00:00.000Z'),
    );
    expect(turns.map((turn) => [turn.turnId, turn.approvedUnfinished, turn.ran])).toEqual([
      ['allowed', 'fs_write ~/approved.txt', []],
      ['denied', undefined, []],
      ['ran', undefined, ['fs_write ~/approved.txt']],
    ]);
  });
});
