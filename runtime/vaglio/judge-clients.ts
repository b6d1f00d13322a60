// The composition root's `clientFor` for the judge panel: each judge gets its own model
// client from its config, falling back to the planner's provider. No retries: the judge's
// timeout_ms is its whole budget and its on_failure policy decides what a fault means.
import type { Config, LlmJudgeConfig } from '../config.ts';
import { ConfigError } from '../errors.ts';
import type { LlmClient } from '../llm/client.ts';
import { createLlmClient } from '../llm/select.ts';

// The judge's own timer fires first; the client's limit is a backstop behind it.
const CLIENT_TIMEOUT_SLACK_MS = 1_000;

function providerFor(
  judge: LlmJudgeConfig,
  config: Config,
  env: NodeJS.ProcessEnv,
): 'openai' | 'ollama' {
  if (judge.provider !== undefined) return judge.provider;
  if (config.llm.provider === 'openai' || config.llm.provider === 'ollama')
    return config.llm.provider;
  return env.OPENAI_API_KEY ? 'openai' : 'ollama';
}

/**
 * A `clientFor` for createLlmPanel: provider, model and base_url from the judge, else from
 * config.llm when it is the same provider. Throws ConfigError when an OpenAI judge has no key.
 */
export function judgeClientFor(
  config: Config,
  env: NodeJS.ProcessEnv,
): (judge: LlmJudgeConfig) => LlmClient {
  return (judge) => {
    const provider = providerFor(judge, config, env);
    if (provider === 'openai' && !env.OPENAI_API_KEY) {
      throw new ConfigError(
        `vaglio.judges "${judge.name}": provider openai needs OPENAI_API_KEY. Fix: set OPENAI_API_KEY or give the judge provider: ollama.`,
      );
    }
    const samePlanner = config.llm.provider === provider;
    return createLlmClient(
      {
        provider,
        model: judge.model ?? (samePlanner ? config.llm.model : undefined),
        baseUrl: judge.base_url ?? (samePlanner ? config.llm.base_url : undefined),
        timeoutMs: judge.timeout_ms + CLIENT_TIMEOUT_SLACK_MS,
        maxRetries: 0,
      },
      env,
    );
  };
}
