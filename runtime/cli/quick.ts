// The entry of the quick bundle (runtime/built/quick.cjs): the decision commands, `custode hook`
// and `custode check`, and nothing else, in one file that the bin loads with V8's code cache
// (runtime/cli/quick-loader.cjs). An agent's hook starts a process per tool call.
import * as check from './check.ts';
import * as hook from './hook.ts';
import type { CliIo } from './io.ts';
import { processIo, runCommand } from './run-command.ts';
import { summaries } from './summaries.ts';

const quick = { check, hook } as const;

/** Run `custode hook …` or `custode check …`; returns the exit code. */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [name = '', ...rest] = argv;
  if (name !== 'hook' && name !== 'check') throw new Error(`not a quick command: "${name}"`);
  return runCommand(name, summaries[name], quick[name], rest, io);
}
