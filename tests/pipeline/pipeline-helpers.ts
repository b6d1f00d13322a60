// Builds a real pipeline for tests, over the test file's own HOME and XDG dirs.
import { parseConfig, type ConfigInput } from '../../runtime/config.ts';
import { createPipeline, type Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome, ProposedCall } from '../../runtime/pipeline/types.ts';

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

/** What an uncarded tier lets the sandbox write; undefined when no tier allowed the call. */
export function writableOf(outcome: PipelineOutcome): readonly string[] | undefined {
  return outcome.decision === 'allow' && outcome.grant.by === 'tier'
    ? outcome.grant.writable
    : undefined;
}
