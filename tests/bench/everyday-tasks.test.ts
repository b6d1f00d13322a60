// The everyday-task runner itself: three tasks of the list replayed through the real chat
// (a call that runs without a card, a delete answered "once" on its card, a refusal), and the
// report's totals and its loud line for a must-ask call that ran without a card. The full
// benchmark is `npm run eval:tasks`.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayTask, runFailure, type TaskResult } from '../../runtime/bench/tasks/replay.ts';
import { formatReport, totalsOf } from '../../runtime/bench/tasks/report.ts';
import {
  startScriptedOpenAi,
  type ScriptedOpenAi,
} from '../../runtime/bench/tasks/scripted-openai.ts';
import { taskSets } from '../../runtime/bench/tasks/task-sets.ts';
import { everydayTasks } from '../../runtime/bench/tasks/task-list.ts';
import type { EverydayTask } from '../../runtime/bench/tasks/task-types.ts';
import { exists } from '../helpers/exists.ts';

let server: ScriptedOpenAi;
beforeAll(async () => {
  server = await startScriptedOpenAi();
});
afterAll(() => server.close());

function task(id: string): EverydayTask {
  const found = taskSets.flatMap((set) => set.tasks).find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no task ${id}`);
  return found;
}

describe('the task list', () => {
  it('has at least 30 tasks over every group, unique ids, and must-ask calls', () => {
    expect(everydayTasks.length).toBeGreaterThanOrEqual(30);
    expect(new Set(everydayTasks.map((entry) => entry.id)).size).toBe(everydayTasks.length);
    expect(new Set(everydayTasks.map((entry) => entry.group))).toEqual(
      new Set(['home', 'project', 'system', 'web', 'chores', 'must-ask']),
    );
    const calls = everydayTasks.flatMap((entry) => entry.calls);
    expect(calls.filter((call) => call.card === 'must').length).toBeGreaterThanOrEqual(10);
  });

  it.each(taskSets.slice(1).map((set, index) => [set.name, index + 1] as const))(
    'has the %s set of at least 30 tasks over every group, its ids unique across all sets',
    (_name, index) => {
      const set = taskSets[index]?.tasks ?? [];
      expect(set.length).toBeGreaterThanOrEqual(30);
      const ids = taskSets
        .slice(0, index + 1)
        .flatMap((earlier) => earlier.tasks.map((entry) => entry.id));
      expect(new Set(ids).size).toBe(ids.length);
      expect(new Set(set.map((entry) => entry.group)).size).toBe(6);
      const calls = set.flatMap((entry) => entry.calls);
      expect(calls.filter((call) => call.card === 'must').length).toBeGreaterThanOrEqual(9);
    },
  );
});

describe('replaying a task through the real chat', () => {
  it('a read-only task runs every call without a card and completes', async () => {
    const result = await replayTask(task('downloads-overview'), server);
    expect(result.calls.map((record) => [record.decision, record.cards, record.ran])).toEqual([
      ['allow', 0, true],
      ['allow', 0, true],
    ]);
    expect(result.calls.map((record) => record.failure)).toEqual([null, null]);
    expect(result).toMatchObject({ answered: true, completed: true });
    expect(await exists(result.home)).toBe(false);
  });

  it('a delete shows its card, runs once answered, and the file is gone', async () => {
    const result = await replayTask(task('delete-old-invoice'), server, { keepHome: true });
    try {
      const [, remove] = result.calls;
      expect(remove).toMatchObject({ decision: 'ask', cards: 1, ran: true, failure: null });
      expect(remove?.headline).toContain('invoice-2025-03.pdf');
      expect(await exists(join(result.home, 'Downloads/invoice-2025-03.pdf'))).toBe(false);
      expect(await exists(join(result.home, 'Downloads/invoice-2025-10.pdf'))).toBe(true);
      expect(result.completed).toBe(true);
      expect(totalsOf([result])).toMatchObject({ cardsWanted: 1, silentMustAsk: 0 });
    } finally {
      await rm(result.home, { recursive: true, force: true });
    }
  });

  it('a call that names the home by its absolute path runs in the fixture HOME', async () => {
    const result = await replayTask(task('history-graph'), server);
    expect(result.calls[0]).toMatchObject({ ran: true, failure: null });
  });

  it('a refused call leaves the task not completed, and the turn still ends with an answer', async () => {
    const result = await replayTask(task('install-script'), server);
    expect(result.calls[0]).toMatchObject({ decision: 'deny', cards: 0, ran: false });
    expect(result.calls[0]?.refused).toMatch(/downloaded/);
    expect(result).toMatchObject({ answered: true, completed: false });
    expect(totalsOf([result])).toMatchObject({ refused: 1, silentMustAsk: 0 });
  });
});

describe('the report', () => {
  const silentPush: TaskResult = {
    task: {
      id: 'silent-push',
      group: 'must-ask',
      ask: 'push',
      calls: [{ tool: 'shell_exec', args: { command: 'git push' }, card: 'must' }],
    },
    calls: [
      {
        call: { tool: 'shell_exec', args: { command: 'git push' }, card: 'must' },
        decision: 'allow',
        reason: 'read-only: made up',
        cards: 0,
        headline: '',
        foretold: false,
        refused: null,
        ran: true,
        failure: null,
      },
    ],
    answered: true,
    completed: true,
  };

  it('counts a must-ask call that ran without a card, and says so loudly', () => {
    expect(totalsOf([silentPush])).toMatchObject({ missing: 1, silentMustAsk: 1, cardsShown: 0 });
    const report = formatReport([silentPush]);
    expect(report).toContain('!!! MUST-ASK RAN WITHOUT A CARD');
    expect(report).toContain('1 MUST-ASK CALL(S) RAN WITHOUT A CARD');
  });

  it('names why a run failed: an error, a timeout, a non-zero exit', () => {
    expect(runFailure({ ok: false, error: { name: 'NetworkError', message: 'no route' } })).toBe(
      'NetworkError: no route',
    );
    const shell = { stdout: '', truncated: false, sandbox: 'bwrap' };
    expect(
      runFailure({
        ok: true,
        result: { ...shell, exit_code: null, timed_out: true, stderr: 'npm http fetch\n' },
      }),
    ).toBe('timed out: npm http fetch');
    expect(
      runFailure({
        ok: true,
        result: { ...shell, exit_code: 1, timed_out: false, stderr: 'WARNING: root\nERROR: x\n' },
      }),
    ).toBe('exit 1: ERROR: x');
    expect(
      runFailure({ ok: true, result: { ...shell, exit_code: 0, timed_out: false, stderr: '' } }),
    ).toBeNull();
    expect(runFailure({ ok: true, result: { path: '~/x', bytes: 3 } })).toBeNull();
  });
});
