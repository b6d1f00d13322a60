// One command run: `--help` prints its usage and runs nothing; otherwise it runs, and the errors
// every command shares become exit codes. The only place besides the bin that sets one.
import { ConfigError, NetworkError } from '../errors.ts';
import {
  asksForHelp,
  helpText,
  UsageError,
  type CliCommand,
  type CliIo,
  type CommandSpec,
} from './io.ts';

export interface CommandModule {
  readonly spec: CommandSpec;
  readonly run: CliCommand;
}

/** The process's own streams and environment. */
export function processIo(): CliIo {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
}

/** Run `custode <name> <argv>`; returns the exit code. */
export async function runCommand(
  name: string,
  summary: string,
  command: CommandModule,
  argv: string[],
  io: CliIo,
): Promise<number> {
  if (asksForHelp(argv, command.spec)) {
    io.stdout.write(helpText(command.spec, summary));
    return 0;
  }
  try {
    return await command.run(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`custode ${name}: ${error.message}\n\n${error.usage}`);
      return 2;
    }
    if (error instanceof ConfigError) {
      io.stderr.write(`custode: ${error.message}\n`);
      return 78;
    }
    // The network or a provider failed in a way the command could not go on from: say it plainly.
    if (error instanceof NetworkError) {
      io.stderr.write(`custode: ${error.message}\n`);
      return 69;
    }
    throw error;
  }
}
