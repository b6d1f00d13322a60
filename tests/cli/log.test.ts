// `custode log` tells the assistant's decisions from those `custode check` and other agents'
// hooks asked for, and names the tier that let a call run without a card.
import { describe, expect, it } from 'vitest';
import { auditDecisionSchema } from '../../runtime/log/audit-log.ts';
import { runCli } from './cli-helpers.ts';

const home = process.env.HOME ?? '';

function hookPayload(command: string): string {
  return JSON.stringify({
    session_id: 's',
    cwd: home,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
  });
}

describe('custode log', { timeout: 60_000 }, () => {
  it('counts decisions by origin and uncarded allows by tier', async () => {
    await runCli(['hook', 'claude-code'], hookPayload('rm -rf /'));
    await runCli(['hook', 'claude-code'], hookPayload('ls -la'));
    await runCli(
      ['check'],
      JSON.stringify({ intent: 'x', executor: 'shell_exec', args: { command: 'git status' } }),
    );
    const run = await runCli(['log'], '');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('by origin: hook:claude-code 2, check 1');
    expect(run.stdout).toMatch(
      /allowed without a card, by tier: read-only: (ls|git status) 1, read-only: (ls|git status) 1/,
    );
    expect(run.stdout).toMatch(
      /recent denials:\n {2}\S+ hook:claude-code shell_exec guard: dangerous shell/,
    );
  });
});

describe('audit decision line: origin and tier', () => {
  const line = {
    v: 1,
    event: 'decision',
    ts: '2026-11-23T00:00:00.000Z',
    intent: 'claude-code Bash',
    executor: 'shell_exec',
    args_keys: ['command', 'cwd'],
    context_keys: ['mode'],
    stage: null,
    decision: 'allow',
    verdict: {
      approved: true,
      reason: 'approved: score 0.70 (no signal)',
      ts: '2026-11-23T00:00:00.000Z',
      judge_kind: 'rule-based-v1',
      score: 0.7,
      confidence: 0.6,
      blocked_by: null,
      signals: [],
    },
  };

  it('accepts a known origin and a tier name, and an older line with neither', () => {
    expect(auditDecisionSchema.safeParse(line).success).toBe(true);
    const tagged = { ...line, origin: 'hook:codex', tier: 'workspace: mkdir' };
    expect(auditDecisionSchema.safeParse(tagged).success).toBe(true);
  });

  it('refuses an origin it does not know and a tier that is not a tier (a value could hide there)', () => {
    expect(auditDecisionSchema.safeParse({ ...line, origin: 'rm -rf /' }).success).toBe(false);
    expect(auditDecisionSchema.safeParse({ ...line, tier: 'rule: my secret' }).success).toBe(false);
  });
});
