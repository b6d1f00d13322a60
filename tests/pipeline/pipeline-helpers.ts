// Builds a real pipeline for tests, over the test file's own HOME and XDG dirs.
import { parseConfig, type ConfigInput } from '../../runtime/config.ts';
import { createPipeline, type Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { ProposedCall } from '../../runtime/pipeline/types.ts';

export async function pipelineWith(
  config: ConfigInput = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<Pipeline> {
  return createPipeline({ config: parseConfig(config), env });
}

export function call(
  executor: string,
  args: unknown,
  intent = 'help me with my project',
  extra: Partial<ProposedCall> = {},
): ProposedCall {
  return { executor, args, intent, ...extra };
}
