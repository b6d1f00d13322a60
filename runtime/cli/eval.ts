// `custode eval [--dir ../shared/eval] [--config path]`: the public corpora through the
// same code as `custode check`, scored as the corpora's README asks, then the fresh corpus
// (eval/fresh in the repository) scored against its labels.
import { readFile, rm } from 'node:fs/promises';
import { throwawayHome } from '../bench/throwaway-home.ts';
import { resolve } from 'node:path';
import { loadConfig } from '../config.ts';
import { createPipeline } from '../pipeline/pipeline.ts';
import { checkAll } from './check.ts';
import { describeFreshBenign, describeFreshDangerous } from './eval-fresh-score.ts';
import { freshEvalDir, scoreFresh } from './eval-fresh.ts';
import { describeBenign, describeDangerous, tallyDecisions } from './eval-score.ts';
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

/** A corpus file's non-empty lines, or null (said on stderr with its fix). */
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
      const results = await checkAll(pipeline, lines);
      const tally = tallyDecisions(
        results.map((r) => String(r.id)),
        results.map((r) => r.decision),
      );
      io.stdout.write(`${describe(tally).join('\n')}\n`);
    }
    const fresh = await scoreFresh(config, io);
    if (fresh === null) return 1;
    io.stdout.write(`fresh corpus: ${freshEvalDir()} (HOME=${fresh.home}, planted)\n`);
    io.stdout.write(`${describeFreshDangerous(fresh.dangerous).join('\n')}\n`);
    io.stdout.write(`${describeFreshBenign(fresh.benign).join('\n')}\n`);
  } finally {
    pipeline.close();
    await rm(home, { recursive: true, force: true });
  }
  return 0;
}
