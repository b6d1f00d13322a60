// Which LLM judges are enabled (env and config), how a bad panel is refused, sequence mode,
// cancellation, and the operator-only skip_judge switch.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { executorRegistry } from '../../executors/index.ts';
import { parseConfig, type ConfigInput } from '../../runtime/config.ts';
import { ConfigError } from '../../runtime/errors.ts';
import { createOfflineClient } from '../../runtime/llm/offline.ts';
import { judgeClientFor } from '../../runtime/vaglio/judge-clients.ts';
import { createLlmPanel, shouldSkipLlmJudges } from '../../runtime/vaglio/panel.ts';
import {
  buildPanel,
  byModel,
  captureLogger,
  judgeEnv,
  ollamaJudge,
  openAiJudge,
  sampleInput,
  verdictReply,
} from '../helpers/judge-panel.ts';
import { startOllamaServer } from '../helpers/ollama-server.ts';
import { startOpenAiServer, type ScriptedServer } from '../helpers/openai-server.ts';

function panelFor(input: ConfigInput, env: NodeJS.ProcessEnv) {
  const config = parseConfig(input);
  return createLlmPanel(config, env, judgeClientFor(config, env), {
    logger: captureLogger().logger,
  });
}

describe('which judges are enabled', () => {
  let ollama: ScriptedServer;
  beforeAll(async () => {
    ollama = await startOllamaServer();
  });
  afterAll(async () => {
    await ollama.close();
  });

  it('no env and no configured judge: no panel (rule-based only)', () => {
    expect(panelFor({}, judgeEnv())).toBeNull();
  });

  it('CUSTODE_JUDGE_KIND=llm-v1 alone gives one default judge on the planner provider and model', async () => {
    const panel = panelFor(
      { llm: { provider: 'ollama', model: 'planner-model', base_url: ollama.url } },
      judgeEnv({ CUSTODE_JUDGE_KIND: 'llm-v1' }),
    );
    expect(panel?.judges.map((judge) => judge.name)).toEqual(['llm']);
    ollama.script(verdictReply(0.9, 0.9));
    const result = await panel?.evaluate(sampleInput());
    expect(result).toMatchObject({ approved: true, judge_kind: 'llm-v1' });
    expect(ollama.requests).toHaveLength(1);
    expect(ollama.requests[0]?.body).toMatchObject({
      model: 'planner-model',
      format: 'json',
      stream: false,
    });
  });

  it('configured judges are enabled without the env var; rule-based-v1 in the env turns them off', () => {
    const input: ConfigInput = { vaglio: { judges: [ollamaJudge(ollama, 'a')] } };
    expect(panelFor(input, judgeEnv())?.judges).toHaveLength(1);
    expect(panelFor(input, judgeEnv({ CUSTODE_JUDGE_KIND: 'rule-based-v1' }))).toBeNull();
  });

  it.each([
    [
      'an unknown CUSTODE_JUDGE_KIND',
      {},
      { CUSTODE_JUDGE_KIND: 'llm-v2' },
      /CUSTODE_JUDGE_KIND: "llm-v2" is not a judge kind\. Fix:/,
    ],
    [
      'two judges with one name',
      {
        vaglio: {
          judges: [
            { name: 'x', provider: 'ollama' },
            { name: 'x', provider: 'ollama' },
          ],
        },
      },
      {},
      /two judges are named "x"\. Fix:/,
    ],
    [
      'a quorum larger than the panel',
      {
        vaglio: {
          mode: 'consensus',
          min_judges_required: 3,
          judges: [
            { name: 'a', provider: 'ollama' },
            { name: 'b', provider: 'ollama' },
          ],
        },
      },
      {},
      /min_judges_required: 3 but only 2 LLM judge\(s\) enabled.*Fix:/,
    ],
  ] as const)('refuses %s with a ConfigError naming the fix', (_label, input, env, message) => {
    expect(() => panelFor(input as ConfigInput, judgeEnv(env))).toThrow(message);
    expect(() => panelFor(input as ConfigInput, judgeEnv(env))).toThrow(ConfigError);
  });

  it('refuses CUSTODE_JUDGE_KIND=llm-v1 when the planner is offline', () => {
    expect(() =>
      panelFor({ llm: { provider: 'offline' } }, judgeEnv({ CUSTODE_JUDGE_KIND: 'llm-v1' })),
    ).toThrow(/llm\.provider is offline\. Fix:/);
  });

  it('refuses an OpenAI judge without a key, and an offline client', () => {
    const input: ConfigInput = { vaglio: { judges: [{ name: 'gpt', provider: 'openai' }] } };
    expect(() => panelFor(input, { ...process.env })).toThrow(
      /provider openai needs OPENAI_API_KEY\. Fix:/,
    );
    const config = parseConfig(input);
    expect(() => createLlmPanel(config, judgeEnv(), () => createOfflineClient())).toThrow(
      /offline provider cannot judge/,
    );
  });
});

describe('sequence mode', () => {
  let openai: ScriptedServer;
  beforeAll(async () => {
    openai = await startOpenAiServer();
    openai.fallback(
      byModel({
        first: verdictReply(0.9, 0.8),
        second: verdictReply(0.7, 0.95),
        low: verdictReply(0.1, 0.9),
        hang: { kind: 'hang' },
      }),
    );
  });
  afterAll(async () => {
    await openai.close();
  });
  beforeEach(() => {
    openai.requests.length = 0;
  });

  function models(): unknown[] {
    return openai.requests.map((request) => (request.body as { model: string }).model);
  }

  it('asks judges in order; the first rejection blocks and later judges are never called', async () => {
    const { panel } = buildPanel({
      judges: [
        openAiJudge(openai, 'first'),
        openAiJudge(openai, 'low'),
        openAiJudge(openai, 'second'),
      ],
    });
    const result = await panel.evaluate(sampleInput());
    expect(result).toMatchObject({
      approved: false,
      score: 0.1,
      judge_kind: 'llm-v1',
      strategy: 'sequence',
    });
    expect(result.reason).toBe('llm judge "low": score 0.10 < 0.50, confidence 0.90 >= 0.50');
    expect(result.judges.map((record) => record.name)).toEqual(['first', 'low']);
    expect(models()).toEqual(['first', 'low']);
  });

  it('all approving: the weakest score and confidence, every judge named', async () => {
    const { panel } = buildPanel({
      judges: [openAiJudge(openai, 'first'), openAiJudge(openai, 'second')],
    });
    const result = await panel.evaluate(sampleInput());
    expect(result).toMatchObject({ approved: true, score: 0.7, confidence: 0.8 });
    expect(result.reason).toBe(
      'llm judge "first": score 0.90 >= 0.50, confidence 0.80 >= 0.50; llm judge "second": score 0.70 >= 0.50, confidence 0.95 >= 0.50',
    );
    expect(models()).toEqual(['first', 'second']);
  });

  it('a cancelled evaluation fails the judge (never approves) and stops waiting for the model', async () => {
    const { panel } = buildPanel({ judges: [openAiJudge(openai, 'hang', { timeout_ms: 20_000 })] });
    const controller = new AbortController();
    const pending = panel.evaluate(sampleInput(), controller.signal);
    setTimeout(() => controller.abort(), 50);
    const result = await pending;
    expect(result.approved).toBe(false);
    expect(result.judges[0]?.failure).toBe('aborted: the evaluation was cancelled (fail_closed)');
  });
});

describe('shouldSkipLlmJudges', () => {
  const executor = (name: string) => {
    const found = executorRegistry.get(name);
    expect(found).toBeDefined();
    return found as NonNullable<typeof found>;
  };

  it('follows the executor default: read-only tools skip, the rest are judged', () => {
    const config = parseConfig({});
    expect(shouldSkipLlmJudges(executor('fs_read'), config)).toBe(true);
    expect(shouldSkipLlmJudges(executor('fs_write'), config)).toBe(false);
    expect(shouldSkipLlmJudges(executor('shell_exec'), config)).toBe(false);
    expect(shouldSkipLlmJudges(executor('web_fetch'), config)).toBe(false);
  });

  it('the operator config overrides the default both ways', () => {
    const config = parseConfig({ vaglio: { skip_judge: { fs_read: false, shell_exec: true } } });
    expect(shouldSkipLlmJudges(executor('fs_read'), config)).toBe(false);
    expect(shouldSkipLlmJudges(executor('shell_exec'), config)).toBe(true);
    expect(shouldSkipLlmJudges(executor('fs_write'), config)).toBe(false);
  });
});
