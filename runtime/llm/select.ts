// Which model the planner talks to, and why: config first, then an OpenAI key, then a
// local Ollama that answers, else offline. `custode doctor` prints the reason.
import type { Config } from '../config.ts';
import type { LlmClient } from './client.ts';
import { createOfflineClient } from './offline.ts';
import { withRetry } from './retry.ts';

/** Where a local Ollama listens unless OLLAMA_HOST says otherwise. */
export const defaultOllamaHost = 'http://127.0.0.1:11434';

export type ProviderName = LlmClient['provider'];

export interface ClientSpec {
  readonly provider: ProviderName;
  readonly model?: string | undefined;
  readonly baseUrl?: string | undefined;
  readonly timeoutMs: number;
  readonly maxRetries: number;
}

const defaultModels: Record<ProviderName, string> = {
  openai: 'gpt-4o-mini',
  ollama: 'llama3.1',
  offline: 'offline',
};

/** The Ollama host from OLLAMA_HOST (a bare host:port gets http://), else the local default. */
export function ollamaHost(env: NodeJS.ProcessEnv, baseUrl?: string): string {
  const host = baseUrl ?? env.OLLAMA_HOST;
  if (!host) return defaultOllamaHost;
  return /^https?:\/\//.test(host) ? host : `http://${host}`;
}

/**
 * A client whose SDK loads on its first chat, so a daemon that never talks to that provider
 * (offline, or the other one) never loads its SDK. A failed load is tried again next time.
 */
function lazyClient(
  provider: ProviderName,
  model: string,
  load: () => Promise<LlmClient>,
): LlmClient {
  let loading: Promise<LlmClient> | undefined;
  return {
    provider,
    model,
    async chat(request) {
      loading ??= load().catch((error: unknown) => {
        loading = undefined;
        throw error;
      });
      return (await loading).chat(request);
    },
  };
}

/** A client for this provider (with our retry policy); the judge panel builds its clients here too. */
export function createLlmClient(spec: ClientSpec, env: NodeJS.ProcessEnv): LlmClient {
  const model = spec.model ?? env.CUSTODE_MODEL ?? defaultModels[spec.provider];
  const retry = { maxRetries: spec.maxRetries, maxRetryAfterMs: spec.timeoutMs };
  switch (spec.provider) {
    case 'openai':
      return withRetry(
        lazyClient('openai', model, async () =>
          (await import('./openai.ts')).createOpenAiClient({
            apiKey: env.OPENAI_API_KEY ?? '',
            baseUrl: spec.baseUrl ?? env.OPENAI_BASE_URL,
            model,
            timeoutMs: spec.timeoutMs,
          }),
        ),
        retry,
      );
    case 'ollama':
      return withRetry(
        lazyClient('ollama', model, async () =>
          (await import('./ollama.ts')).createOllamaClient({
            host: ollamaHost(env, spec.baseUrl),
            model,
            timeoutMs: spec.timeoutMs,
          }),
        ),
        retry,
      );
    case 'offline':
      return createOfflineClient();
  }
}

/** Whether an Ollama server answers GET /api/tags within the probe time. */
export async function ollamaAnswers(host: string, timeoutMs = 500): Promise<boolean> {
  try {
    const response = await fetch(new URL('/api/tags', host), {
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/** The planner's client and the reason it was chosen. */
export async function selectProvider(
  config: Config,
  env: NodeJS.ProcessEnv,
  options: { probeTimeoutMs?: number } = {},
): Promise<{ client: LlmClient; reason: string }> {
  const base = {
    model: config.llm.model,
    baseUrl: config.llm.base_url,
    timeoutMs: config.llm.timeout_ms,
    maxRetries: config.llm.max_retries,
  };
  const chosen = config.llm.provider;
  if (chosen !== undefined) {
    if (chosen === 'openai' && !env.OPENAI_API_KEY) {
      return {
        client: createOfflineClient(),
        reason: 'config llm.provider is openai but OPENAI_API_KEY is not set: offline',
      };
    }
    const client = createLlmClient({ ...base, provider: chosen }, env);
    if (chosen !== 'ollama') return { client, reason: `config llm.provider is ${chosen}` };
    // Chosen, so used either way; the probe only tells doctor whether it will work.
    const host = ollamaHost(env, config.llm.base_url);
    const up = await ollamaAnswers(host, options.probeTimeoutMs);
    return {
      client,
      reason: `config llm.provider is ollama (${up ? 'answers' : 'NOT answering'} at ${host})`,
    };
  }
  if (env.OPENAI_API_KEY)
    return {
      client: createLlmClient({ ...base, provider: 'openai' }, env),
      reason: 'OPENAI_API_KEY is set',
    };
  const host = ollamaHost(env, config.llm.base_url);
  if (await ollamaAnswers(host, options.probeTimeoutMs)) {
    return {
      client: createLlmClient({ ...base, provider: 'ollama' }, env),
      reason: `Ollama answers at ${host}`,
    };
  }
  return {
    client: createOfflineClient(),
    reason: `no OPENAI_API_KEY and no Ollama at ${host}: offline (set OPENAI_API_KEY, OLLAMA_HOST or llm.provider)`,
  };
}
