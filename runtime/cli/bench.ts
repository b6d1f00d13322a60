// `custode bench` (npm run bench): every benchmark section, printed as figures. Sections
// run one after another so they do not disturb each other's timings.
import type { BenchSection } from '../bench/types.ts';
import { parseCommand, type CliIo, type CommandSpec } from './io.ts';

export const spec = {
  usage: 'custode bench [section...]',
  details: ['section         pipeline, sandbox, planner, judge or telegram (default: all)'],
  options: {},
  maxPositionals: 5,
} satisfies CommandSpec;

const sections: readonly (readonly [string, () => Promise<BenchSection>])[] = [
  ['pipeline', async () => (await import('../bench/pipeline.ts')).benchPipeline()],
  ['hook', async () => (await import('../bench/hook.ts')).benchHook()],
  ['sandbox', async () => (await import('../bench/sandbox.ts')).benchSandbox()],
  ['grep', async () => (await import('../bench/grep.ts')).benchGrep()],
  ['planner', async () => (await import('../bench/planner.ts')).benchPlanner()],
  ['judge', async () => (await import('../bench/judge.ts')).benchJudge()],
  ['telegram', async () => (await import('../bench/telegram.ts')).benchTelegram()],
];

/** Run `custode bench [section...]`. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const wanted = parseCommand(argv, spec).positionals;
  let failed = 0;
  for (const [name, bench] of sections) {
    if (wanted.length > 0 && !wanted.includes(name)) continue;
    try {
      const section = await bench();
      io.stdout.write(
        `\n== ${section.title}\n${section.lines.map((line) => `  ${line}`).join('\n')}\n`,
      );
    } catch (error) {
      failed += 1;
      io.stdout.write(`\n== ${name}: failed: ${(error as Error).message}\n`);
    }
  }
  return failed === 0 ? 0 : 1;
}
