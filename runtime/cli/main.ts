// The CLI entry: dispatches `custode <command>`; the only place that sets an exit code
// for the whole process. Each command module exports its `spec` (parsed strictly by
// node:util parseArgs) and `run`; `--help` on any command prints its usage and runs nothing.
import { readFile } from 'node:fs/promises';
import { ConfigError, NetworkError } from '../errors.ts';
import {
  asksForHelp,
  helpText,
  UsageError,
  type CliCommand,
  type CliIo,
  type CommandSpec,
} from './io.ts';

interface CommandModule {
  readonly spec: CommandSpec;
  readonly run: CliCommand;
}

const commands: ReadonlyMap<string, { summary: string; load: () => Promise<CommandModule> }> =
  new Map([
    ['chat', { summary: 'talk to Custode in this terminal', load: () => import('./chat.ts') }],
    [
      'daemon',
      { summary: 'serve the channels enabled in the config', load: () => import('./daemon.ts') },
    ],
    [
      'check',
      {
        summary: 'run the pipeline on proposed calls (JSON in, JSON out), nothing executed',
        load: () => import('./check.ts'),
      },
    ],
    [
      'hook',
      {
        summary:
          'gate another agent: `hook claude-code` or `hook codex` (PreToolUse JSON on stdin)',
        load: () => import('./hook.ts'),
      },
    ],
    [
      'serve',
      {
        summary: 'answer Claude Code http hooks on 127.0.0.1 (or a unix socket), kept warm',
        load: () => import('./serve.ts'),
      },
    ],
    [
      'log',
      {
        summary: 'summarise the audit log (`log turns`: recent turns)',
        load: () => import('./log.ts'),
      },
    ],
    [
      'doctor',
      { summary: 'what is set up and what is missing', load: () => import('./doctor.ts') },
    ],
    [
      'pair',
      {
        summary:
          'let people talk to the bot: `pair list`, `pair approve <code>`, `pair revoke <id>`',
        load: () => import('./pair.ts'),
      },
    ],
    [
      'service',
      {
        summary:
          'run the daemon as a systemd user service (`service install`), or print a launchd agent',
        load: () => import('./service.ts'),
      },
    ],
    [
      'bench',
      {
        summary: 'measure the pipeline, sandbox, planner and channels',
        load: () => import('./bench.ts'),
      },
    ],
    [
      'eval',
      {
        summary: 'score the guard and policy on the public corpora',
        load: () => import('./eval.ts'),
      },
    ],
    [
      'eval-tasks',
      {
        summary: 'replay the everyday tasks through the real chat: cards shown vs wanted',
        load: () => import('./eval-tasks.ts'),
      },
    ],
  ]);

function usage(): string {
  const lines = [...commands].map(([name, { summary }]) => `  ${name.padEnd(10)} ${summary}`);
  return `usage: custode <command> [options]   (custode <command> --help for its options)\n       custode --version\n\n${lines.join('\n')}\n`;
}

async function version(): Promise<string> {
  const text = await readFile(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
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
  if (name === '--version' || name === '-V') {
    io.stdout.write(`custode ${await version()}\n`);
    return 0;
  }
  const command = commands.get(name);
  if (command === undefined) {
    const what = name.startsWith('-') ? `unknown option "${name}"` : `unknown command "${name}"`;
    io.stderr.write(`custode: ${what}\n\n${usage()}`);
    return 2;
  }
  const { spec, run } = await command.load();
  if (asksForHelp(rest, spec)) {
    io.stdout.write(helpText(spec, command.summary));
    return 0;
  }
  try {
    return await run(rest, io);
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
