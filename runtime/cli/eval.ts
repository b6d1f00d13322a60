// `custode eval [--dir ../shared/eval] [--config path]`: the public corpora through the
// same code as `custode check`, scored as the corpora's README asks.
import { readFile, rm } from 'node:fs/promises';
import { throwawayHome } from '../bench/throwaway-home.ts';
import { join, resolve } from 'node:path';
import { loadConfig } from '../config.ts';
import { createPipeline } from '../pipeline/pipeline.ts';
import { checkOne } from './check.ts';
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
      let text: string;
      try {
        text = await readFile(join(dir, file), 'utf8');
      } catch {
        io.stderr.write(
          `custode eval: cannot read ${resolve(dir, file)}. Fix: pass --dir <folder holding ${file}> (the public corpora, shared/eval beside the repository by default).\n`,
        );
        return 1;
      }
      const lines = text.split('\n').filter((line) => line.trim() !== '');
      const ids: string[] = [];
      const decisions: string[] = [];
      for (const line of lines) {
        const result = await checkOne(pipeline, line);
        ids.push(String(result.id));
        decisions.push(result.decision);
      }
      io.stdout.write(`${describe(tallyDecisions(ids, decisions)).join('\n')}\n`);
    }
  } finally {
    pipeline.close();
    await rm(home, { recursive: true, force: true });
  }
  return 0;
}
