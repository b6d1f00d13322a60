// The LLM judge panel: which judges are enabled, and how their answers become one result,
// either in sequence (first rejection blocks, later judges are not asked) or in parallel
// with a consensus strategy. The pipeline's judge stage runs it after the guard and the
// rule-based judge, so a call the guard blocks never costs a model call.
import type { AnyExecutor } from '../../executors/define.ts';
import { LAWS } from '../../constitution/laws.ts';
import { configSchemas, type Config, type LlmJudgeConfig } from '../config.ts';
import { ConfigError } from '../errors.ts';
import type { LlmClient } from '../llm/client.ts';
import { createLogger, type Logger } from '../log/logger.ts';
import { combineVotes, quorumShortfall, type Vote } from './consensus.ts';
import type { JudgeInput, JudgeResult } from './judge.ts';
import { buildJudgeSystemPrompt } from './judge-payload.ts';
import { createLlmJudge, judgeVote, toJudgeRecord, type LlmJudge } from './llm-judge.ts';
import { loadTelos } from './telos-file.ts';
import type { JudgeKind, JudgeRecord } from './verdict.ts';

/** The panel's combined answer; the judge stage merges it into the Verdict. */
export interface PanelResult {
  readonly approved: boolean;
  readonly score: number;
  readonly confidence: number;
  /** Names judges, scores, thresholds and failures; never the model's free text (audit-safe). */
  readonly reason: string;
  readonly judge_kind: JudgeKind;
  /** "sequence" or the consensus strategy. */
  readonly strategy: string;
  readonly judges: JudgeRecord[];
  readonly signals: string[];
}

/** The enabled LLM judges behind one evaluate(). */
export interface LlmPanel {
  readonly judges: readonly LlmJudge[];
  readonly strategy: string;
  /** Never throws: failures are already shaped by each judge's on_failure policy. */
  evaluate(input: JudgeInput, signal?: AbortSignal): Promise<PanelResult>;
}

/** Optional collaborators; a logger is created from the env when none is given. */
export interface PanelOptions {
  readonly logger?: Logger;
}

function fixed(value: number): string {
  return value.toFixed(2);
}

/**
 * The judges enabled by CUSTODE_JUDGE_KIND and config vaglio.judges: `llm-v1` with no judge
 * configured gives one default judge on the planner's provider; `rule-based-v1` turns the
 * panel off; unset leaves it to the config. Throws ConfigError on a value it does not know.
 */
export function enabledJudges(config: Config, env: NodeJS.ProcessEnv): LlmJudgeConfig[] {
  const kind = env.CUSTODE_JUDGE_KIND?.trim() ?? '';
  if (kind === 'rule-based-v1') return [];
  if (kind !== '' && kind !== 'llm-v1') {
    throw new ConfigError(
      `CUSTODE_JUDGE_KIND: "${kind}" is not a judge kind. Fix: set it to llm-v1 or rule-based-v1, or unset it.`,
    );
  }
  if (config.vaglio.judges.length > 0 || kind === '') return config.vaglio.judges;
  const provider = config.llm.provider;
  if (provider === 'offline') {
    throw new ConfigError(
      'CUSTODE_JUDGE_KIND=llm-v1 needs a model, but llm.provider is offline. Fix: set llm.provider to openai or ollama, or configure vaglio.judges with a provider.',
    );
  }
  return [
    configSchemas().llmJudgeSchema.parse({
      ...(provider === undefined ? {} : { provider }),
      ...(config.llm.model === undefined ? {} : { model: config.llm.model }),
      ...(config.llm.base_url === undefined ? {} : { base_url: config.llm.base_url }),
    }),
  ];
}

function checkPanel(config: Config, judges: readonly LlmJudgeConfig[]): void {
  const seen = new Set<string>();
  for (const judge of judges) {
    if (seen.has(judge.name)) {
      throw new ConfigError(
        `vaglio.judges: two judges are named "${judge.name}". Fix: give each judge its own name.`,
      );
    }
    seen.add(judge.name);
  }
  if (config.vaglio.mode === 'consensus' && config.vaglio.min_judges_required > judges.length) {
    throw new ConfigError(
      `vaglio.min_judges_required: ${config.vaglio.min_judges_required} but only ${judges.length} LLM judge(s) enabled, so every call would be rejected. Fix: lower it or add judges.`,
    );
  }
}

function judgeReason(config: LlmJudgeConfig, result: JudgeResult): string {
  const name = `llm judge "${config.name}"`;
  if (result.failure !== undefined) {
    return `${name} failed (${result.failure}): ${config.on_failure === 'degrade' ? 'abstains' : 'rejects'}`;
  }
  const scoreOp = result.score >= config.min_score ? '>=' : '<';
  const confidenceOp = result.confidence >= config.min_confidence ? '>=' : '<';
  return (
    `${name}: score ${fixed(result.score)} ${scoreOp} ${fixed(config.min_score)}, ` +
    `confidence ${fixed(result.confidence)} ${confidenceOp} ${fixed(config.min_confidence)}`
  );
}

function signalsOf(config: LlmJudgeConfig, result: JudgeResult): string[] {
  return result.signals.map((flag) => `${config.name}:${flag}`);
}

function toVote(config: LlmJudgeConfig, result: JudgeResult): Vote {
  return {
    name: config.name,
    weight: config.weight,
    approved: judgeVote(config, result) === 'approve',
    score: result.score,
    confidence: result.confidence,
    ...(result.failure === undefined ? {} : { failure: result.failure }),
    minScore: config.min_score,
    minConfidence: config.min_confidence,
  };
}

interface Judged {
  readonly config: LlmJudgeConfig;
  readonly result: JudgeResult;
}

function abstentions(judged: readonly Judged[]): string {
  const named = judged.map(({ config, result }) => `${config.name} ${result.failure ?? ''}`);
  return named.length === 0 ? '' : `; abstained: ${named.join('; ')}`;
}

/**
 * In order; the first rejection blocks and later judges are not asked. Abstainers do not
 * block. min_judges_required is a consensus setting: here every judge is a gate of its own.
 */
async function runSequence(
  judges: readonly LlmJudge[],
  input: JudgeInput,
  signal: AbortSignal | undefined,
): Promise<PanelResult> {
  const judged: Judged[] = [];
  const base = { judge_kind: 'llm-v1', strategy: 'sequence' } as const;
  for (const judge of judges) {
    const result = await judge.evaluate(input, signal);
    judged.push({ config: judge.config, result });
    if (judgeVote(judge.config, result) === 'reject') {
      return {
        ...base,
        approved: false,
        score: result.score,
        confidence: result.confidence,
        reason: judgeReason(judge.config, result),
        judges: judged.map(({ config, result: own }) => toJudgeRecord(config, own)),
        signals: judged.flatMap(({ config, result: own }) => signalsOf(config, own)),
      };
    }
  }
  const voting = judged.filter(({ config, result }) => judgeVote(config, result) === 'approve');
  const abstaining = judged.filter(({ config, result }) => judgeVote(config, result) === 'abstain');
  // Every judge abstained: the panel is neutral (0.5, confidence 0), as each judge was.
  const scored = voting.length > 0 ? voting : abstaining;
  return {
    ...base,
    approved: true,
    score: Math.min(...scored.map(({ result }) => result.score)),
    confidence: Math.min(...scored.map(({ result }) => result.confidence)),
    reason: judged.map(({ config, result }) => judgeReason(config, result)).join('; '),
    judges: judged.map(({ config, result }) => toJudgeRecord(config, result)),
    signals: judged.flatMap(({ config, result }) => signalsOf(config, result)),
  };
}

/** In parallel; abstainers are left out of the strategy, and the quorum counts answers. */
async function runConsensus(
  judges: readonly LlmJudge[],
  vaglio: Config['vaglio'],
  input: JudgeInput,
  signal: AbortSignal | undefined,
): Promise<PanelResult> {
  const results = await Promise.all(judges.map((judge) => judge.evaluate(input, signal)));
  const judged = judges.map((judge, index) => ({
    config: judge.config,
    result: results[index] as JudgeResult,
  }));
  const abstaining = judged.filter(({ config, result }) => judgeVote(config, result) === 'abstain');
  const votes = judged
    .filter(({ config, result }) => judgeVote(config, result) !== 'abstain')
    .map(({ config, result }) => toVote(config, result));
  const combined = combineVotes(vaglio.strategy, votes, { bestOfN: vaglio.best_of_n });
  const answered = judged.filter(({ result }) => result.failure === undefined).length;
  const shortfall = quorumShortfall(answered, judges.length, vaglio.min_judges_required);
  const reason = `${combined.reason}${abstentions(abstaining)}`;
  return {
    approved: combined.approved && shortfall === null,
    score: combined.score,
    confidence: combined.confidence,
    reason: shortfall === null ? reason : `${shortfall}; ${reason}`,
    judge_kind: `consensus:${vaglio.strategy}`,
    strategy: vaglio.strategy,
    judges: judged.map(({ config, result }) => toJudgeRecord(config, result)),
    signals: judged.flatMap(({ config, result }) => signalsOf(config, result)),
  };
}

/**
 * The LLM panel for this config and environment, or null when no LLM judge is enabled.
 * `clientFor` builds each judge's model client (once, here). Throws ConfigError for a bad
 * panel (unknown CUSTODE_JUDGE_KIND, duplicate names, an offline judge, an impossible quorum).
 */
export function createLlmPanel(
  config: Config,
  env: NodeJS.ProcessEnv,
  clientFor: (judge: LlmJudgeConfig) => LlmClient,
  options: PanelOptions = {},
): LlmPanel | null {
  const configs = enabledJudges(config, env);
  if (configs.length === 0) return null;
  checkPanel(config, configs);
  const logger = options.logger ?? createLogger(env);
  let prompt: Promise<string> | undefined;
  // Read TELOS.md once, on the first judged call; a failed read is retried next time.
  const systemPrompt = (): Promise<string> => {
    prompt ??= loadTelos(env).then(
      (telos) => buildJudgeSystemPrompt(LAWS, telos),
      (error: unknown) => {
        prompt = undefined;
        throw error;
      },
    );
    return prompt;
  };
  const judges = configs.map((judgeConfig) => {
    const client = clientFor(judgeConfig);
    if (client.provider === 'offline') {
      throw new ConfigError(
        `vaglio.judges "${judgeConfig.name}": the offline provider cannot judge. Fix: set the judge's provider (openai or ollama) or llm.provider.`,
      );
    }
    return createLlmJudge({ config: judgeConfig, client, systemPrompt, logger });
  });
  const vaglio = config.vaglio;
  const strategy = vaglio.mode === 'sequence' ? 'sequence' : vaglio.strategy;
  return {
    judges,
    strategy,
    evaluate: (input, signal) =>
      vaglio.mode === 'sequence'
        ? runSequence(judges, input, signal)
        : runConsensus(judges, vaglio, input, signal),
  };
}

/**
 * Whether the LLM judges are skipped for this executor: the operator's
 * config.vaglio.skip_judge[executor] when set, else the executor's own default (true only
 * for read-only tools). Only operator config counts; nothing in a call's context can change it.
 */
export function shouldSkipLlmJudges(executor: AnyExecutor, config: Config): boolean {
  const overrides = config.vaglio.skip_judge;
  return Object.hasOwn(overrides, executor.name)
    ? overrides[executor.name] === true
    : executor.skipJudge;
}
