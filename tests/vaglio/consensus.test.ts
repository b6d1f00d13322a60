// Several judges in parallel with each consensus strategy, through the real SDKs against the
// local servers (judges routed by model name), plus the arithmetic of the strategies.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { combineVotes, type Vote } from '../../runtime/vaglio/consensus.ts';
import {
  buildPanel,
  byModel,
  ollamaJudge,
  openAiJudge,
  sampleInput,
  verdictReply,
} from '../helpers/judge-panel.ts';
import { startOllamaServer } from '../helpers/ollama-server.ts';
import { startOpenAiServer, type ScriptedServer } from '../helpers/openai-server.ts';

function vote(name: string, score: number, confidence: number, extra: Partial<Vote> = {}): Vote {
  return {
    name,
    weight: 1,
    approved: score >= 0.5 && confidence >= 0.5,
    score,
    confidence,
    minScore: 0.5,
    minConfidence: 0.5,
    ...extra,
  };
}

describe('combineVotes arithmetic', () => {
  it('weighted_average weighs scores and lowers confidence by the spread', () => {
    const outcome = combineVotes(
      'weighted_average',
      [vote('a', 0.9, 0.9, { weight: 2 }), vote('b', 0.8, 0.8), vote('c', 0.7, 0.6)],
      { bestOfN: 2 },
    );
    const spread = Math.sqrt((2 * 0.075 ** 2 + 0.025 ** 2 + 0.125 ** 2) / 4);
    expect(outcome.score).toBeCloseTo(0.825, 10);
    expect(outcome.confidence).toBeCloseTo(0.8 * (1 - 2 * spread), 10);
    expect(outcome.approved).toBe(true);
  });

  it('weighted_average: judges that disagree wildly lose confidence to zero', () => {
    const outcome = combineVotes('weighted_average', [vote('a', 1, 1), vote('b', 0, 1)], {
      bestOfN: 2,
    });
    expect(outcome).toMatchObject({ approved: false, score: 0.5, confidence: 0 });
  });

  it('uses the strictest thresholds of the voting judges', () => {
    const outcome = combineVotes(
      'best_of_n',
      [vote('a', 0.7, 0.9), vote('b', 0.7, 0.9, { minScore: 0.8 })],
      { bestOfN: 2 },
    );
    expect(outcome.approved).toBe(false);
    expect(outcome.reason).toContain('score 0.70 < 0.80');
  });

  it('majority needs a strict majority; a tie rejects', () => {
    expect(
      combineVotes('majority', [vote('a', 0.9, 0.9), vote('b', 0.1, 0.9)], { bestOfN: 1 }).approved,
    ).toBe(false);
  });

  it('an empty panel rejects', () => {
    expect(combineVotes('unanimous', [], { bestOfN: 1 })).toMatchObject({
      approved: false,
      reason: 'unanimous: no judge voted',
    });
  });
});

describe('consensus panels over the wire', () => {
  let openai: ScriptedServer;
  let ollama: ScriptedServer;
  beforeAll(async () => {
    [openai, ollama] = await Promise.all([startOpenAiServer(), startOllamaServer()]);
    const replies = byModel({
      yes: verdictReply(0.9, 0.9),
      fair: verdictReply(0.7, 0.8),
      no: verdictReply(0.2, 0.9),
      broken: { kind: 'error', status: 500 },
      garbled: { kind: 'message', text: 'sure, why not' },
    });
    openai.fallback(replies);
    ollama.fallback(replies);
  });
  afterAll(async () => {
    await Promise.all([openai.close(), ollama.close()]);
  });
  beforeEach(() => {
    openai.requests.length = 0;
    ollama.requests.length = 0;
  });

  function panelOf(
    strategy: 'weighted_average' | 'majority' | 'unanimous' | 'best_of_n',
    judges: ReturnType<typeof openAiJudge>[],
    extra = {},
  ) {
    return buildPanel({ mode: 'consensus', strategy, judges, ...extra }).panel;
  }

  it('majority: two of three approve, across both providers, every judge asked', async () => {
    const result = await panelOf('majority', [
      openAiJudge(openai, 'yes'),
      ollamaJudge(ollama, 'fair'),
      openAiJudge(openai, 'no'),
    ]).evaluate(sampleInput());
    expect(result).toMatchObject({
      approved: true,
      judge_kind: 'consensus:majority',
      strategy: 'majority',
      confidence: 2 / 3,
    });
    expect(result.reason).toBe('majority: 2 of 3 judges approve');
    expect(result.judges.map((record) => [record.name, record.approved])).toEqual([
      ['yes', true],
      ['fair', true],
      ['no', false],
    ]);
    expect(openai.requests).toHaveLength(2);
    expect(ollama.requests).toHaveLength(1);
  });

  it('majority: a fail_closed failure is a reject vote, named, and tips the balance', async () => {
    const result = await panelOf('majority', [
      openAiJudge(openai, 'yes'),
      openAiJudge(openai, 'broken'),
    ]).evaluate(sampleInput());
    expect(result.approved).toBe(false);
    expect(result.reason).toBe(
      'majority: 1 of 2 judges approve (a strict majority is needed); failed: broken provider_error: provider answered 500 (fail_closed)',
    );
  });

  it('unanimous: one rejection blocks and is named; all approving passes', async () => {
    const blocked = await panelOf('unanimous', [
      openAiJudge(openai, 'yes'),
      openAiJudge(openai, 'no'),
      openAiJudge(openai, 'fair'),
    ]).evaluate(sampleInput());
    expect(blocked).toMatchObject({
      approved: false,
      score: 0.2,
      reason: 'unanimous: 1 of 3 judges reject (no)',
    });
    const passed = await panelOf('unanimous', [
      openAiJudge(openai, 'yes'),
      ollamaJudge(ollama, 'fair'),
    ]).evaluate(sampleInput());
    expect(passed).toMatchObject({
      approved: true,
      score: 0.7,
      confidence: 0.8,
      judge_kind: 'consensus:unanimous',
    });
  });

  it('unanimous: a failed judge under fail_closed blocks', async () => {
    const result = await panelOf('unanimous', [
      openAiJudge(openai, 'yes'),
      openAiJudge(openai, 'garbled'),
    ]).evaluate(sampleInput());
    expect(result.approved).toBe(false);
    expect(result.reason).toContain('1 of 2 judges reject (garbled)');
    expect(result.judges[1]?.failure).toBe('malformed: no JSON object in the answer (fail_closed)');
  });

  it('weighted_average: the failed judge counts with score 0 and its weight', async () => {
    const result = await panelOf('weighted_average', [
      openAiJudge(openai, 'yes', { weight: 3 }),
      openAiJudge(openai, 'broken', { weight: 1 }),
    ]).evaluate(sampleInput());
    expect(result.score).toBeCloseTo(0.675, 10);
    const spread = Math.sqrt((3 * 0.225 ** 2 + 0.675 ** 2) / 4);
    expect(result.confidence).toBeCloseTo(Math.max(0, (2.7 / 4) * (1 - 2 * spread)), 10);
    expect(result.approved).toBe(false);
    expect(result.judge_kind).toBe('consensus:weighted_average');
  });

  it('best_of_n: averages the top n by score x confidence; a failure ranks last', async () => {
    const result = await panelOf(
      'best_of_n',
      [
        openAiJudge(openai, 'no'),
        openAiJudge(openai, 'broken'),
        openAiJudge(openai, 'yes'),
        ollamaJudge(ollama, 'fair'),
      ],
      { best_of_n: 2 },
    ).evaluate(sampleInput());
    expect(result).toMatchObject({ approved: true, judge_kind: 'consensus:best_of_n' });
    expect(result.score).toBeCloseTo(0.8, 10);
    expect(result.confidence).toBeCloseTo(0.85, 10);
    expect(result.reason).toMatch(
      /^best_of_n: top 2 of 4 \(yes, fair\): .*; failed: broken provider_error/,
    );
  });

  it('a degraded judge abstains: left out of the vote, counted out of the quorum, named', async () => {
    const result = await panelOf('unanimous', [
      openAiJudge(openai, 'yes'),
      openAiJudge(openai, 'broken', { on_failure: 'degrade' }),
    ]).evaluate(sampleInput());
    expect(result.approved).toBe(true);
    expect(result.reason).toBe(
      'unanimous: all 1 judges approve; abstained: broken provider_error: provider answered 500 (degrade)',
    );
    expect(result.judges[1]).toMatchObject({ approved: false, score: 0.5, confidence: 0 });
  });

  it('min_judges_required not met: rejects naming it, whatever the votes say', async () => {
    const result = await panelOf(
      'majority',
      [
        openAiJudge(openai, 'yes'),
        openAiJudge(openai, 'broken', { on_failure: 'degrade' }),
        openAiJudge(openai, 'garbled', { on_failure: 'degrade' }),
      ],
      { min_judges_required: 2 },
    ).evaluate(sampleInput());
    expect(result.approved).toBe(false);
    expect(result.reason).toMatch(
      /^only 1 of 3 judges answered; min_judges_required is 2; majority: 1 of 1 judges approve; abstained: broken .*; garbled .*/,
    );
    expect(openai.requests).toHaveLength(3);
  });
});
