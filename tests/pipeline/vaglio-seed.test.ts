// The vaglio's seed cases (issue: the safety core), through the whole pipeline.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { monthKey } from '../../runtime/paths.ts';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

let pipeline: Pipeline;
beforeAll(async () => {
  pipeline = await pipelineWith();
});
afterAll(() => pipeline.close());
afterEach(() => {
  delete process.env.CUSTODE_JUDGE_THRESHOLD;
});

describe('vaglio seed cases', () => {
  it('passes a harmless path with rule-based-v1 and a score in [0,1]', async () => {
    const outcome = await pipeline.evaluate(
      call('fs_read', { path: '/tmp/n.txt' }, 'read my notes in /tmp/n.txt'),
    );
    expect(outcome.decision).toBe('allow');
    expect(outcome.verdict.judge_kind).toBe('rule-based-v1');
    expect(outcome.verdict.approved).toBe(true);
    expect(outcome.verdict.score).toBe(0.8);
    expect(outcome.verdict.reason).toBe('approved: score 0.80 (intent names the executor)');
  });

  it.each([
    ['~/.ssh/id_rsa'],
    ['/etc/passwd'],
    ['~/.config/custode/credentials.env'],
    ['$HOME/.ssh/../.ssh/id_ed25519'],
  ])('blocks the forbidden path %s at the guard', async (path) => {
    const outcome = await pipeline.evaluate(call('fs_read', { path }));
    expect(outcome.decision).toBe('deny');
    expect(outcome.stage).toBe('guard');
    expect(outcome.verdict.blocked_by).toBe('guard');
    expect(outcome.verdict.score).toBe(0);
    expect(outcome.reason).toMatch(/forbidden path/);
  });

  it.each([['rm -rf /'], [':(){ :|:& };:']])('blocks %s at the guard', async (command) => {
    const outcome = await pipeline.evaluate(call('shell_exec', { command }));
    expect(outcome.decision).toBe('deny');
    expect(outcome.verdict.blocked_by).toBe('guard');
  });

  it('lets ls -la /tmp through', async () => {
    const outcome = await pipeline.evaluate(call('shell_exec', { command: 'ls -la /tmp' }));
    expect(outcome.decision).not.toBe('deny');
    expect(outcome.verdict.approved).toBe(true);
  });

  it('scores higher when the intent names the executor', async () => {
    const plain = await pipeline.evaluate(call('fs_list', { path: '/tmp' }, 'what is there'));
    const named = await pipeline.evaluate(call('fs_list', { path: '/tmp' }, 'list /tmp for me'));
    expect(named.verdict.score - plain.verdict.score).toBeCloseTo(0.1);
  });

  it('scores 0.20 lower when a path holds ..', async () => {
    const plain = await pipeline.evaluate(
      call('fs_read', { path: '/tmp/a/n.txt' }, 'read my notes'),
    );
    const dotted = await pipeline.evaluate(
      call('fs_read', { path: '/tmp/a/../n.txt' }, 'read my notes'),
    );
    expect(plain.verdict.score - dotted.verdict.score).toBeCloseTo(0.2);
    expect(dotted.verdict.signals).toContain('path traversal (..) in args');
  });

  it('adds 0.05 when the context says the executor is not critical', async () => {
    const outcome = await pipeline.evaluate(
      call('fs_read', { path: '/tmp/n.txt' }, 'read my notes', { context: { critical: false } }),
    );
    expect(outcome.verdict.score).toBe(0.85);
  });

  it('reads CUSTODE_JUDGE_THRESHOLD at call time: 0.99 denies at the judge', async () => {
    process.env.CUSTODE_JUDGE_THRESHOLD = '0.99';
    const outcome = await pipeline.evaluate(
      call('fs_read', { path: '/tmp/n.txt' }, 'read my notes in /tmp/n.txt'),
    );
    expect(outcome.decision).toBe('deny');
    expect(outcome.stage).toBe('judge');
    expect(outcome.verdict.blocked_by).toBe('judge');
    expect(outcome.reason).toBe('judge: score 0.80 < threshold 0.99 (intent names the executor)');
  });

  it('fails closed on a malformed threshold', async () => {
    process.env.CUSTODE_JUDGE_THRESHOLD = 'lots';
    const outcome = await pipeline.evaluate(call('fs_read', { path: '/tmp/n.txt' }));
    expect(outcome.decision).toBe('deny');
    expect(outcome.stage).toBe('judge');
  });

  it('writes the month log with the intent and never an argument value', async () => {
    const secret = 'sk-live-THIS-IS-A-SECRET-0123456789';
    await pipeline.evaluate(
      call('fs_write', { path: '/tmp/x.txt', content: secret }, 'save my key note'),
    );
    await pipeline.evaluate(
      call('shell_exec', { command: `echo ${secret} > ~/.ssh/authorized_keys` }, 'install key'),
    );
    const file = join(process.env.XDG_DATA_HOME ?? '', 'custode', 'vaglio', `${monthKey()}.jsonl`);
    expect(existsSync(file)).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('save my key note');
    expect(text).toContain('"args_keys":["content","path"]');
    expect(text).not.toContain(secret);
    expect(text).not.toContain('authorized_keys');
  });
});
