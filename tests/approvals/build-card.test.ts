import { beforeAll, describe, expect, it } from 'vitest';
import type { Verdict } from '../../runtime/vaglio/verdict.ts';
import { executorRegistry } from '../../executors/index.ts';
import { buildCard, shorten } from '../../runtime/approvals/build-card.ts';
import {
  renderCardText,
  renderResolvedText,
  decodeButton,
  encodeButton,
} from '../../runtime/approvals/render.ts';
import type { DenyStage, PipelineOutcome, ProposedCall } from '../../runtime/pipeline/types.ts';
import { initShellParser } from '../../runtime/shell/parse.ts';

beforeAll(async () => {
  await initShellParser();
});

function outcome(
  call: ProposedCall,
  decision: 'ask' | 'deny',
  stage: DenyStage | null = null,
): PipelineOutcome {
  const executor = stage === 'validation' ? undefined : executorRegistry.get(call.executor);
  const verdict: Verdict = {
    approved: decision === 'ask',
    reason: 'r',
    ts: new Date().toISOString(),
    judge_kind: 'rule-based-v1',
    score: decision === 'ask' ? 0.8 : 0,
    confidence: 1,
    blocked_by: stage === 'guard' ? 'guard' : null,
    signals: [],
  };
  const base = {
    reason: decision === 'ask' ? 'approved: score 0.80 (critical asks)' : `${stage ?? 'judge'}: no`,
    verdict,
    signals: [],
    ...(executor === undefined ? {} : { executor, args: call.args }),
  };
  return decision === 'ask'
    ? { decision, stage: null, ...base }
    : { decision, stage: stage ?? 'judge', ...base };
}

const home = process.env.HOME ?? '';

describe('buildCard', () => {
  it('says what will happen before how, for each executor class', () => {
    const write: ProposedCall = {
      executor: 'fs_write',
      args: { path: '~/notes/a.txt', content: 'hello' },
      intent: 'i',
    };
    expect(buildCard(write, outcome(write, 'ask'))).toEqual({
      kind: 'approval',
      headline: 'Write ~/notes/a.txt',
      verb: 'Write',
      target: '~/notes/a.txt',
      reversible: false,
      executorClass: 'files',
      executor: 'fs_write',
      detail: '{"path":"~/notes/a.txt","content":"hello"}',
      score: 0.8,
      reason: 'approved: score 0.80 (critical asks)',
    });
    const run: ProposedCall = {
      executor: 'shell_exec',
      args: { command: 'git reset --hard HEAD~1' },
      intent: 'i',
    };
    expect(buildCard(run, outcome(run, 'ask'))).toMatchObject({
      headline: 'Run git reset',
      executorClass: 'shell',
      reversible: false,
      detail: 'git reset --hard HEAD~1',
    });
    const fetchCall: ProposedCall = {
      executor: 'web_fetch',
      args: { url: 'https://example.org/a?b=c' },
      intent: 'i',
    };
    expect(buildCard(fetchCall, outcome(fetchCall, 'ask'))).toMatchObject({
      headline: 'Fetch example.org',
      executorClass: 'web',
      reversible: true,
    });
    const mkdirCall: ProposedCall = {
      executor: 'fs_mkdir',
      args: { path: `${home}/new` },
      intent: 'i',
    };
    expect(buildCard(mkdirCall, outcome(mkdirCall, 'ask'))).toMatchObject({
      headline: 'Create directory ~/new',
      reversible: true,
    });
    const del: ProposedCall = { executor: 'fs_delete', args: { path: '/tmp/x' }, intent: 'i' };
    expect(buildCard(del, outcome(del, 'ask'))).toMatchObject({
      headline: 'Delete /tmp/x',
      reversible: false,
    });
  });

  it('names the extra commands of a list, and shows a command whole or by its head and tail', () => {
    const long = `git status && ${'echo hi; '.repeat(60)}`;
    const call: ProposedCall = { executor: 'shell_exec', args: { command: long }, intent: 'i' };
    const card = buildCard(call, outcome(call, 'ask'));
    expect(card.target).toMatch(/^git status \(\+\d+ more commands\)$/);
    expect(card.detail).toBe(long.trim());
    const hidden = `echo ${'building-the-release-notes-'.repeat(80)} && git push --force origin main`;
    const tail = { executor: 'shell_exec', args: { command: hidden, cwd: '~/app' }, intent: 'i' };
    const pushed = buildCard(tail, outcome(tail, 'ask'));
    expect(pushed.target).toBe('echo (+1 more command)');
    expect(pushed.detail).toContain('characters not shown');
    expect(pushed.detail).toContain('&& git push --force origin main\nin ~/app');
    expect(shorten('a\n\n b', 10)).toBe('a b');
  });

  it.each([
    ['validation', /Fix the arguments/],
    ['scope', /roots, shell.subcommand_allowlist/],
    ['guard', /forbidden by the constitution/],
    ['judge', /Rephrase the request/],
  ] as const)('turns a %s denial into a refusal with advice', (stage, advice) => {
    const call: ProposedCall = {
      executor: 'fs_read',
      args: { path: '~/.ssh/id_rsa' },
      intent: 'i',
    };
    const card = buildCard(call, outcome(call, 'deny', stage));
    expect(card.kind).toBe('refusal');
    expect(card.advice).toMatch(advice);
    expect(renderCardText(card)).toContain(`Refused: ${card.headline}`);
  });
});

describe('render', () => {
  it('renders plain text and the resolved line with who decided', () => {
    const call: ProposedCall = {
      executor: 'fs_write',
      args: { path: '~/a_b*c.txt', content: '<b>' },
      intent: 'i',
    };
    const card = buildCard(call, outcome(call, 'ask'));
    const text = renderCardText(card);
    expect(text.split('\n')[0]).toBe('Approval needed: Write ~/a_b*c.txt');
    expect(text).toContain('Cannot be undone · files (fs_write)');
    expect(renderResolvedText(card, 'once', 'telegram:42')).toBe(
      'Write ~/a_b*c.txt\nAllowed once by telegram:42.',
    );
    expect(renderResolvedText(card, 'expired')).toContain('treated as denied');
  });

  it('round-trips button payloads and rejects anything else', () => {
    expect(decodeButton(encodeButton('abcDEF123_-abcDEF123_-', 'always'))).toEqual({
      approvalId: 'abcDEF123_-abcDEF123_-',
      answer: 'always',
    });
    expect(decodeButton('a:x:z')).toBeNull();
    expect(decodeButton('b:abc:o')).toBeNull();
    expect(decodeButton('a:../x:o')).toBeNull();
  });
});
