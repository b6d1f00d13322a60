// The CLI entry: dispatches `custode <command>`. Each command module exports its `spec` (parsed
// strictly by node:util parseArgs) and `run`, loaded only when that command runs; run-command.ts
// runs it. The decision commands (`hook`, `check`) also have a bundle of their own (quick.ts).
import { readFile } from 'node:fs/promises';
import type { CliIo } from './io.ts';
import { processIo, runCommand, type CommandModule } from './run-command.ts';
import { summaries, type CommandName } from './summaries.ts';

const loaders: Readonly<Record<CommandName, () => Promise<CommandModule>>> = {
  chat: () => import('./chat.ts'),
  daemon: () => import('./daemon.ts'),
  check: () => import('./check.ts'),
  hook: () => import('./hook.ts'),
  serve: () => import('./serve.ts'),
  log: () => import('./log.ts'),
  doctor: () => import('./doctor.ts'),
  pair: () => import('./pair.ts'),
  service: () => import('./service.ts'),
  bench: () => import('./bench.ts'),
  eval: () => import('./eval.ts'),
  'eval-tasks': () => import('./eval-tasks.ts'),
};

/** A command name from the command line, looked up as an own key only. */
function isCommand(name: string): name is CommandName {
  return Object.hasOwn(loaders, name);
}

function usage(): string {
  const lines = Object.entries(summaries).map(
    ([name, summary]) => `  ${name.padEnd(10)} ${summary}`,
  );
  return `usage: custode <command> [options]   (custode <command> --help for its options)\n       custode --version\n\n${lines.join('\n')}\n`;
}

async function version(): Promise<string> {
  const text = await readFile(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

/** Run the CLI with process streams; returns the exit code. */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    io.stdout.write(usage());
    return 0;
  }
  if (name === '--version' || name === '-V') {
    io.stdout.write(`custode ${await version()}\n`);
    return 0;
  }
  if (!isCommand(name)) {
    const what = name.startsWith('-') ? `unknown option "${name}"` : `unknown command "${name}"`;
    io.stderr.write(`custode: ${what}\n\n${usage()}`);
    return 2;
  }
  return runCommand(name, summaries[name], await loaders[name](), rest, io);
}
