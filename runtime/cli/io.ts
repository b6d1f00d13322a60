// The streams and environment a CLI command works with (injected, so tests can drive it),
// and the one argument parser every command uses (node:util parseArgs, strict).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CustodeError } from '../errors.ts';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

export interface CliIo {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
}

/** A subcommand: takes its own argv (after the command name), returns the exit code. */
export type CliCommand = (argv: string[], io: CliIo) => Promise<number>;

/** What a command accepts: its synopsis and its options (its summary lives in main's table). */
export interface CommandSpec<O extends ParseArgsOptionsConfig = ParseArgsOptionsConfig> {
  /** `custode <name> ...`, e.g. `custode chat [--config path]`. */
  readonly usage: string;
  /** One line per option or argument, shown by --help. */
  readonly details?: readonly string[];
  readonly options: O;
  /** How many positional arguments it takes (default none). */
  readonly maxPositionals?: number;
}

/** The command line was wrong (unknown flag, missing value, extra argument). */
export class UsageError extends CustodeError {
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
  }
}

/** `--config path` (or `--config=path`), shared by every command that reads the config. */
export const configOption = { config: { type: 'string' } } as const;
export const CONFIG_DETAIL =
  '--config path   the config file (default $XDG_CONFIG_HOME/custode/config.yaml)';

/** The usage and option lines of a command (--help shows them, a usage error too). */
export function helpText(spec: CommandSpec, summary?: string): string {
  const details = spec.details ?? [];
  return `usage: ${spec.usage}\n${summary === undefined ? '' : `\n${summary}\n`}${details.length > 0 ? `\n${details.map((line) => `  ${line}`).join('\n')}\n` : ''}`;
}

/** Whether argv asks for --help / -h as an option (not as the value of another option). */
export function asksForHelp(argv: readonly string[], spec: CommandSpec): boolean {
  const { tokens } = parseArgs({
    args: [...argv],
    options: { ...spec.options, help: { type: 'boolean', short: 'h' } },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  return tokens.some((token) => token.kind === 'option' && token.name === 'help');
}

/** Parse a command's argv strictly: an unknown flag or an extra argument is a UsageError. */
export function parseCommand<const O extends ParseArgsOptionsConfig>(
  argv: readonly string[],
  spec: CommandSpec<O>,
) {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: spec.options,
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message, helpText(spec));
  }
  const extra = parsed.positionals.slice(spec.maxPositionals ?? 0);
  if (extra.length > 0) {
    throw new UsageError(`Unexpected argument '${extra.join(' ')}'`, helpText(spec));
  }
  return parsed;
}

/** Read all of stdin as UTF-8. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
