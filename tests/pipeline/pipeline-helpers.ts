// Builds a real pipeline for tests, over the test file's own HOME and XDG dirs.
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parseConfig, type ConfigInput } from '../../runtime/config.ts';
import { createPipeline, type Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome, ProposedCall } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';

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

/** What a call printed when a tier allowed it without a card ('' when it needed one). */
export async function printedIfUncarded(
  pipeline: Pipeline,
  proposed: ProposedCall,
): Promise<string> {
  const outcome = await pipeline.evaluate(proposed);
  if (outcome.decision !== 'allow') return '';
  return JSON.stringify(await pipeline.invoke(outcome, new AbortController().signal));
}

/**
 * Decide `proposed`, which must be allowed without a card as `allowed` (part of the outcome)
 * says, then run it with `ranArgs` instead (a hostile line under a harmless line's grant); what
 * the run returned.
 */
export async function runUnderGrant(
  pipeline: Pipeline,
  proposed: ProposedCall,
  allowed: Record<string, unknown>,
  ranArgs: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const outcome = await pipeline.evaluate(proposed);
  expect(outcome, JSON.stringify(proposed.args)).toMatchObject({ decision: 'allow', ...allowed });
  const result = await pipeline.invoke({ ...outcome, args: ranArgs }, new AbortController().signal);
  expect(result).toMatchObject({ ok: true });
  return result.ok ? (result.result as Record<string, unknown>) : {};
}

/** What an uncarded tier lets the sandbox write; undefined when no tier allowed the call. */
export function writableOf(outcome: PipelineOutcome): readonly string[] | undefined {
  return outcome.decision === 'allow' && outcome.grant.by === 'tier'
    ? outcome.grant.writable
    : undefined;
}

/** A pipeline that may write the home and /tmp, with a state dir of its own (unreviewed writes …). */
export async function pipelineWithOwnState(
  config: ConfigInput = { roots: { write: ['~', '/tmp'] } },
): Promise<Pipeline> {
  return pipelineWith(config, { ...process.env, XDG_STATE_HOME: await makeTempDir('state-') });
}

/**
 * A new git work tree holding `package.json` (version 1.2.3) and a pipeline that may write the
 * home and /tmp, with its own state dir: where project and read-only code tests start.
 */
export async function projectAndPipeline(
  config: ConfigInput = { roots: { write: ['~', '/tmp'] } },
): Promise<{ project: string; pipeline: Pipeline }> {
  const project = await makeTempDir('app-');
  execFileSync('git', ['init', '-q', project]);
  await writeFile(join(project, 'package.json'), '{"version":"1.2.3"}\n');
  return { project, pipeline: await pipelineWithOwnState(config) };
}
