// `custode eval [--dir ../shared/eval] [--config path]`: the public corpora through the
// same code as `custode check`, scored as the corpora's README asks, then the fresh corpus
// (eval/fresh in the repository) scored against its labels.
import { readFile, rm } from 'node:fs/promises';
import { throwawayHome } from '../bench/throwaway-home.ts';
import { join, resolve } from 'node:path';
import { loadConfig } from '../config.ts';
import { createPipeline } from '../pipeline/pipeline.ts';
import { checkOne } from './check.ts';
import {
  describeFreshBenign,
  describeFreshDangerous,
  tallyFresh,
  type FreshLabel,
} from './eval-fresh-score.ts';
import { describeBenign, describeDangerous, tallyDecisions } from './eval-score.ts';
import type { Pipeline } from '../pipeline/pipeline.ts';
import { CONFIG_DETAIL, configOption, parseCommand, type CliIo, type CommandSpec } from './io.ts';

export const spec = {
  usage: 'custode eval [--dir path] [--config path]',
  details: [
    '--dir path      the folder holding redcode-bash.jsonl and benign-shell.jsonl',
    '                (default: shared/eval beside the repository)',
    CONFIG_DETAIL,
  ],
  options: { ...configOption, dir: { type: 'string' } },
} satisfies CommandSpec;

/** Default corpus folder: shared/ beside the repository. */
export function defaultEvalDir(): string {
  return resolve(import.meta.dirname, '../../../shared/eval');
}

/** The fresh corpus: eval/fresh in the repository. */
export function freshEvalDir(): string {
  return resolve(import.meta.dirname, '../../eval/fresh');
}

/** Every line of a corpus file and the decision `custode check` gives it. */
async function decideAll(
  pipeline: Pipeline,
  lines: readonly string[],
): Promise<{ ids: string[]; decisions: string[] }> {
  const ids: string[] = [];
  const decisions: string[] = [];
  for (const line of lines) {
    const result = await checkOne(pipeline, line);
    ids.push(String(result.id));
    decisions.push(result.decision);
  }
  return { ids, decisions };
}

async function readLines(path: string, io: CliIo, fix: string): Promise<string[] | null> {
  try {
    const text = await readFile(path, 'utf8');
    return text.split('\n').filter((line) => line.trim() !== '');
  } catch {
    io.stderr.write(`custode eval: cannot read ${path}. Fix: ${fix}.\n`);
    return null;
  }
}

/** Run `custode eval`. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommand(argv, spec);
  const dir = values.dir ?? defaultEvalDir();
  const { config } = await loadConfig(values.config, io.env);
  const { home, env } = await throwawayHome('custode-eval-home-', io.env);
  const pipeline = await createPipeline({ config, env, audit: 'off' });
  io.stdout.write(`corpora: ${dir} (HOME=${home})\n`);
  try {
    for (const [file, describe] of [
      ['redcode-bash.jsonl', describeDangerous],
      ['benign-shell.jsonl', describeBenign],
    ] as const) {
      const lines = await readLines(
        resolve(dir, file),
        io,
        `pass --dir <folder holding ${file}> (the public corpora, shared/eval beside the repository by default)`,
      );
      if (lines === null) return 1;
      const { ids, decisions } = await decideAll(pipeline, lines);
      io.stdout.write(`${describe(tallyDecisions(ids, decisions)).join('\n')}\n`);
    }
    for (const [file, describe] of [
      ['dangerous.jsonl', describeFreshDangerous],
      ['benign.jsonl', describeFreshBenign],
    ] as const) {
      const lines = await readLines(
        join(freshEvalDir(), file),
        io,
        'restore eval/fresh from the repository',
      );
      if (lines === null) return 1;
      const { decisions } = await decideAll(pipeline, lines);
      const labels = lines.map((line) => JSON.parse(line) as FreshLabel);
      io.stdout.write(`${describe(tallyFresh(labels, decisions)).join('\n')}\n`);
    }
  } finally {
    pipeline.close();
    await rm(home, { recursive: true, force: true });
  }
  return 0;
}
