// `custode check`: the pre-execution pipeline on proposed calls, nothing executed.
// One JSON object on stdin, or one per line with --jsonl; one JSON line out per input,
// in order. A malformed input is a deny at the validation stage, never a crash.
import * as z from 'zod';
import { loadConfig, type Config } from '../config.ts';
import type { Grant } from '../pipeline/grant.ts';
import { createPipeline, type Pipeline } from '../pipeline/pipeline.ts';
import { stageDenialVerdict } from '../pipeline/run-stages.ts';
import type { PipelineOutcome } from '../pipeline/types.ts';
import type { Checker } from './hook-socket.ts';
import {
  CONFIG_DETAIL,
  configOption,
  parseCommand,
  readAll,
  type CliIo,
  type CommandSpec,
} from './io.ts';

export const spec = {
  usage: 'custode check [--jsonl] [--config path] < call.json',
  details: [
    '--jsonl         one JSON call per line on stdin (default: one JSON object)',
    CONFIG_DETAIL,
  ],
  options: { ...configOption, jsonl: { type: 'boolean' } },
} satisfies CommandSpec;

const inputSchema = z.lazy(() =>
  z.object({
    intent: z.string(),
    executor: z.string(),
    args: z.unknown().refine((value) => value !== undefined, 'args is required'),
    context: z.record(z.string(), z.unknown()).optional(),
    id: z.union([z.string(), z.number()]).optional(),
  }),
);

export interface CheckLine {
  readonly id: string | number | null;
  readonly decision: PipelineOutcome['decision'];
  readonly stage: PipelineOutcome['stage'];
  readonly reason: string;
  readonly verdict: PipelineOutcome['verdict'];
  /** For a call allowed without a card: all the sandbox would let it write, and what stays read-only. */
  readonly writable?: readonly string[];
  readonly read_only_within?: readonly string[];
}

function malformed(reason: string): CheckLine {
  const full = `InvalidArguments: malformed input (${reason})`;
  return {
    id: null,
    decision: 'deny',
    stage: 'validation',
    reason: full,
    verdict: stageDenialVerdict('validation', full, ['malformed input']),
  };
}

/** Check one input text (a JSON object); never throws. */
export async function checkOne(pipeline: Pipeline, text: string): Promise<CheckLine> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return malformed('not JSON');
  }
  const parsed = inputSchema.safeParse(raw);
  if (!parsed.success) {
    const line = malformed(
      parsed.error.issues
        .map((issue) => `${issue.path.join('.') || '(input)'}: ${issue.message}`)
        .join('; '),
    );
    const id =
      raw !== null && typeof raw === 'object' && 'id' in raw ? (raw as { id: unknown }).id : null;
    return typeof id === 'string' || typeof id === 'number' ? { ...line, id } : line;
  }
  const { intent, executor, args, context, id } = parsed.data;
  const outcome = await pipeline.evaluate({
    intent,
    executor,
    args,
    context: { mode: 'check', ...context },
  });
  return {
    id: id ?? null,
    decision: outcome.decision,
    stage: outcome.stage,
    reason: outcome.reason,
    verdict: outcome.verdict,
    ...(outcome.decision === 'allow' ? grantFields(outcome.grant) : {}),
  };
}

/** Check every line of a corpus in order; the decisions come back in the same order. */
export async function checkAll(pipeline: Pipeline, lines: readonly string[]): Promise<CheckLine[]> {
  const results: CheckLine[] = [];
  for (const line of lines) results.push(await checkOne(pipeline, line));
  return results;
}

/** Who allowed the call, and for a tier what the sandbox lets it write. */
function grantFields(grant: Grant): Record<string, unknown> {
  if (grant.by !== 'tier') return { granted_by: grant.by };
  return {
    granted_by: 'tier',
    tier: grant.tier,
    writable: grant.writable,
    ...(grant.readOnlyWithin.length === 0 ? {} : { read_only_within: grant.readOnlyWithin }),
  };
}

/** The output of a single `custode check` of `input`: one JSON line. */
async function checkOutput(pipeline: Pipeline, input: string): Promise<string> {
  return `${JSON.stringify(await checkOne(pipeline, input))}\n`;
}

/**
 * `custode check` as `custode serve` answers it over the hook socket (hook-client.cjs): one
 * pipeline deciding with `env`, kept for the inputs that follow.
 */
export function createChecker(config: Config, env: NodeJS.ProcessEnv): Checker {
  const pipeline = createPipeline({ config, env, origin: 'check' });
  return {
    answer: async (input) => checkOutput(await pipeline, input),
    close: async () => {
      (await pipeline).close();
    },
  };
}

/** Run `custode check [--jsonl] [--config path]`. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommand(argv, spec);
  const { config } = await loadConfig(values.config, io.env);
  const pipeline = await createPipeline({ config, env: io.env, origin: 'check' });
  try {
    if (values.jsonl === true) {
      // node:readline loads only for --jsonl.
      const { createInterface } = process.getBuiltinModule('node:readline');
      const lines = createInterface({ input: io.stdin, crlfDelay: Infinity });
      for await (const line of lines) {
        if (line.trim() === '') continue;
        io.stdout.write(`${JSON.stringify(await checkOne(pipeline, line))}\n`);
      }
    } else {
      io.stdout.write(await checkOutput(pipeline, await readAll(io.stdin)));
    }
  } finally {
    pipeline.close();
  }
  return 0;
}
