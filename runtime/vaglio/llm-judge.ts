// llm-v1: one model judging one call, in a session of its own. Its failures (timeout, provider
// error, unreachable, garbled answer) never pass silently: each judge's on_failure policy turns
// them into a reject (fail_closed) or a neutral zero-confidence abstention (degrade), names
// the failure, and logs it.
import type { LlmJudgeConfig } from '../config.ts';
import { NetworkError, ProviderError } from '../errors.ts';
import type { LlmClient } from '../llm/client.ts';
import type { Logger } from '../log/logger.ts';
import type { Judge, JudgeInput, JudgeResult } from './judge.ts';
import { buildJudgeMessages } from './judge-payload.ts';
import { parseJudgeAnswer } from './parse-judge-answer.ts';
import type { JudgeRecord } from './verdict.ts';

/** An LLM judge with the settings its result is measured against. */
export interface LlmJudge extends Judge {
  readonly kind: 'llm-v1';
  readonly config: LlmJudgeConfig;
}

/** What one judge needs: its settings, its own model client, its prompt, a logger. */
export interface LlmJudgeOptions {
  readonly config: LlmJudgeConfig;
  readonly client: LlmClient;
  /** The judge's system prompt (laws + telos), resolved when a call is judged. */
  readonly systemPrompt: () => Promise<string>;
  readonly logger: Logger;
}

type FailureKind =
  'timeout' | 'provider_error' | 'network_error' | 'malformed' | 'aborted' | 'error';

interface Failure {
  readonly kind: FailureKind;
  readonly detail: string;
}

// The judge's own timer decides "timeout"; the client's limit sits just behind it so the
// request is still torn down if the timer's abort is ignored.
const CLIENT_TIMEOUT_SLACK_MS = 1_000;
// Model-chosen flags end up in verdict signals (the audit log): short tokens only.
const SIGNAL = /^[A-Za-z0-9_.:-]{1,40}$/;
const MAX_SIGNALS = 8;

function classify(error: unknown, timeoutMs: number, aborted: boolean): Failure {
  if (aborted) return { kind: 'aborted', detail: 'the evaluation was cancelled' };
  if (error instanceof ProviderError) {
    return {
      kind: 'provider_error',
      detail: `provider answered ${error.status ?? 'with an error'}`,
    };
  }
  if (error instanceof NetworkError)
    return { kind: 'network_error', detail: 'provider unreachable' };
  if (error instanceof Error && error.name === 'TimeoutError') {
    return { kind: 'timeout', detail: `no answer within ${timeoutMs} ms` };
  }
  return { kind: 'error', detail: error instanceof Error ? error.name : 'non-error thrown' };
}

async function askModel(
  client: LlmClient,
  messages: ReturnType<typeof buildJudgeMessages>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<{ text: string } | Failure> {
  if (signal?.aborted) return { kind: 'aborted', detail: 'the evaluation was cancelled' };
  const controller = new AbortController();
  const forward = (): void => controller.abort(signal?.reason);
  signal?.addEventListener('abort', forward, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<Failure>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new DOMException('judge timeout', 'TimeoutError'));
      resolve({ kind: 'timeout', detail: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
  });
  try {
    const answer = client
      .chat({
        messages,
        json: true,
        signal: controller.signal,
        timeoutMs: timeoutMs + CLIENT_TIMEOUT_SLACK_MS,
      })
      .then((response) => ({ text: response.text }));
    return await Promise.race([answer, timedOut]);
  } catch (error) {
    return classify(error, timeoutMs, signal?.aborted === true);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forward);
  }
}

function failed(config: LlmJudgeConfig, failure: Failure): JudgeResult {
  const failureText = `${failure.kind}: ${failure.detail} (${config.on_failure})`;
  const signals = [`judge_failure:${failure.kind}`];
  return config.on_failure === 'degrade'
    ? {
        score: 0.5,
        confidence: 0,
        reasoning: `judge failed, degraded: ${failureText}`,
        signals,
        failure: failureText,
      }
    : {
        score: 0,
        confidence: 0,
        reasoning: `judge failed, rejecting: ${failureText}`,
        signals,
        failure: failureText,
      };
}

/** Create an llm-v1 judge: never throws from evaluate; failures come back as data. */
export function createLlmJudge(options: LlmJudgeOptions): LlmJudge {
  const { config, client, logger } = options;
  return {
    name: config.name,
    kind: 'llm-v1',
    config,
    async evaluate(input: JudgeInput, signal?: AbortSignal): Promise<JudgeResult> {
      let outcome: { text: string } | Failure;
      try {
        const messages = buildJudgeMessages(await options.systemPrompt(), input);
        outcome = await askModel(client, messages, config.timeout_ms, signal);
      } catch (error) {
        outcome = classify(error, config.timeout_ms, signal?.aborted === true);
      }
      if ('text' in outcome) {
        const parsed = parseJudgeAnswer(outcome.text);
        if (parsed.ok) {
          const { answer } = parsed;
          const signals = answer.signals.filter((flag) => SIGNAL.test(flag)).slice(0, MAX_SIGNALS);
          return {
            score: answer.score,
            confidence: answer.confidence,
            reasoning: answer.reasoning,
            signals,
          };
        }
        outcome = { kind: 'malformed', detail: parsed.error };
      }
      logger.warn(
        {
          judge: config.name,
          provider: client.provider,
          model: client.model,
          failure: outcome.kind,
          policy: config.on_failure,
        },
        `llm judge failed: ${outcome.detail}`,
      );
      return failed(config, outcome);
    },
  };
}

/** How one judge's result counts: a degraded failure abstains, a fail_closed one rejects. */
export type JudgeVote = 'approve' | 'reject' | 'abstain';

/**
 * One judge's vote: both thresholds must hold to approve; a fail_closed failure rejects even
 * with thresholds at 0; a degraded failure abstains (the operator chose not to block on it).
 */
export function judgeVote(config: LlmJudgeConfig, result: JudgeResult): JudgeVote {
  if (result.failure !== undefined) return config.on_failure === 'degrade' ? 'abstain' : 'reject';
  return result.score >= config.min_score && result.confidence >= config.min_confidence
    ? 'approve'
    : 'reject';
}

/** The verdict's per-judge record (an abstaining judge did not approve). */
export function toJudgeRecord(config: LlmJudgeConfig, result: JudgeResult): JudgeRecord {
  return {
    name: config.name,
    kind: 'llm-v1',
    approved: judgeVote(config, result) === 'approve',
    score: result.score,
    confidence: result.confidence,
    ...(result.failure === undefined ? {} : { failure: result.failure }),
  };
}
