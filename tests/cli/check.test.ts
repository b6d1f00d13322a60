// `custode check` as a person runs it: JSON in, JSON lines out, nothing executed.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.ts';

function lines(stdout: string): Record<string, unknown>[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('custode check', () => {
  it('checks one JSON object from stdin', async () => {
    const run = await runCli(
      ['check'],
      JSON.stringify({
        intent: 'read my notes in /tmp/n.txt',
        executor: 'fs_read',
        args: { path: '/tmp/n.txt' },
      }),
    );
    expect(run.code).toBe(0);
    const [line] = lines(run.stdout);
    expect(line).toMatchObject({
      id: null,
      decision: 'allow',
      stage: null,
      verdict: { judge_kind: 'rule-based-v1', score: 0.8 },
    });
  });

  it('checks JSONL in order, answers malformed lines with a validation deny, and runs nothing', async () => {
    const target = join(process.env.HOME ?? '', 'must-not-exist.txt');
    const input = [
      JSON.stringify({
        id: 'a',
        intent: 'x',
        executor: 'fs_write',
        args: { path: target, content: 'x' },
        extra: 'ignored',
      }),
      '{not json',
      JSON.stringify({
        id: 'c',
        intent: 'x',
        executor: 'shell_exec',
        args: { command: 'rm -rf ~' },
      }),
      JSON.stringify({ id: 'd', executor: 'fs_read', args: { path: '/tmp' } }),
      '',
      JSON.stringify({
        id: 'e',
        intent: 'x',
        executor: 'fs_read',
        args: { path: '~/.aws/credentials' },
      }),
    ].join('\n');
    const run = await runCli(['check', '--jsonl'], input);
    expect(run.code).toBe(0);
    const out = lines(run.stdout);
    expect(out.map((line) => [line.id, line.decision, line.stage])).toEqual([
      ['a', 'ask', null],
      [null, 'deny', 'validation'],
      ['c', 'deny', 'guard'],
      ['d', 'deny', 'validation'],
      ['e', 'deny', 'guard'],
    ]);
    expect(existsSync(target)).toBe(false);
  });

  it('names the rule behind a call allowed without a card, and what it could write', async () => {
    const home = process.env.HOME ?? '';
    const input = [
      { id: 'ro', intent: 'x', executor: 'shell_exec', args: { command: 'git status' } },
      { id: 'ws', intent: 'x', executor: 'shell_exec', args: { command: 'mkdir -p notes/new' } },
      { id: 'ask', intent: 'x', executor: 'shell_exec', args: { command: 'rm -rf notes' } },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n');
    const run = await runCli(['check', '--jsonl'], input);
    expect(lines(run.stdout)).toMatchObject([
      { id: 'ro', decision: 'allow', reason: 'read-only: git status', writable: [] },
      { id: 'ws', decision: 'allow', reason: 'workspace: mkdir', writable: [home] },
      { id: 'ask', decision: 'ask' },
    ]);
    expect(lines(run.stdout)[2]).not.toHaveProperty('writable');
    expect(existsSync(join(home, 'notes'))).toBe(false);
  });

  it('reports a malformed config file naming the field and the fix', async () => {
    const config = join(process.env.HOME ?? '', 'bad.yaml');
    writeFileSync(config, 'sandbox:\n  mode: maybe\nplanner:\n  max_stepz: 3\n');
    const run = await runCli(['check', '--config', config], '{}');
    expect(run.code).toBe(78);
    expect(run.stderr).toContain('sandbox.mode');
    expect(run.stderr).toContain('Fix: use one of "bwrap", "off"');
    expect(run.stderr).toContain('remove "max_stepz"');
  });
});
