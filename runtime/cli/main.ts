// The CLI entry: dispatches `custode <command>`; the only place that sets an exit code
// for the whole process.
import { ConfigError } from '../errors.ts';
import type { CliCommand, CliIo } from './io.ts';

const commands: ReadonlyMap<string, { summary: string; load: () => Promise<CliCommand> }> = new Map(
  [
    [
      'chat',
      {
        summary: 'talk to Custode in this terminal',
        load: async () => (await import('./chat.ts')).run,
      },
    ],
    [
      'daemon',
      {
        summary: 'serve the channels enabled in the config',
        load: async () => (await import('./daemon.ts')).run,
      },
    ],
    [
      'check',
      {
        summary: 'run the pipeline on proposed calls (JSON in, JSON out), nothing executed',
        load: async () => (await import('./check.ts')).run,
      },
    ],
    [
      'log',
      {
        summary: 'summarise the audit log (`log turns`: recent turns)',
        load: async () => (await import('./log.ts')).run,
      },
    ],
    [
      'doctor',
      {
        summary: 'what is set up and what is missing',
        load: async () => (await import('./doctor.ts')).run,
      },
    ],
    [
      'bench',
      {
        summary: 'measure the pipeline, sandbox, planner and channels',
        load: async () => (await import('./bench.ts')).run,
      },
    ],
    [
      'eval',
      {
        summary: 'score the guard and policy on the public corpora',
        load: async () => (await import('./eval.ts')).run,
      },
    ],
    [
      'eval-tasks',
      {
        summary: 'replay the everyday tasks through the real chat: cards shown vs wanted',
        load: async () => (await import('./eval-tasks.ts')).run,
      },
    ],
  ],
);

function usage(): string {
  const lines = [...commands].map(([name, { summary }]) => `  ${name.padEnd(10)} ${summary}`);
  return `usage: custode <command> [--config path]\n\n${lines.join('\n')}\n`;
}

/** Run the CLI with process streams; returns the exit code. */
export async function main(
  argv: string[],
  io: CliIo = {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
  },
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    io.stdout.write(usage());
    return 0;
  }
  const command = commands.get(name);
  if (command === undefined) {
    io.stderr.write(`custode: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  try {
    return await (
      await command.load()
    )(rest, io);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(`custode: ${error.message}\n`);
      return 78;
    }
    throw error;
  }
}
