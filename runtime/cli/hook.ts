// `custode hook claude-code|codex`: one PreToolUse payload on stdin, the answer in that agent's
// hook format. Every failure (bad payload, bad config, a crash) blocks with exit 2 and a reason:
// an agent treats any other failing exit as "go ahead".
import { loadConfig } from '../config.ts';
import { createHookGate, type HookAgent, type HookAnswer } from '../hooks/gate.ts';
import { claudeCodeCommandReply, codexCommandReply, type CommandReply } from '../hooks/replies.ts';
import {
  CONFIG_DETAIL,
  configOption,
  parseCommand,
  readAll,
  type CliIo,
  type CommandSpec,
} from './io.ts';

const replies: Readonly<Record<HookAgent, (answer: HookAnswer) => CommandReply>> = {
  'claude-code': claudeCodeCommandReply,
  codex: codexCommandReply,
};

/** An agent name from the command line, looked up as an own key only. */
function isAgent(name: string): name is HookAgent {
  return Object.hasOwn(replies, name);
}

export const spec = {
  usage: 'custode hook <claude-code|codex> [--config path] < pre-tool-use.json',
  details: [
    "claude-code     answer in Claude Code's PreToolUse format (deny | ask | no decision)",
    'codex           answer as a Codex PreToolUse hook (exit 2 blocks)',
    CONFIG_DETAIL,
  ],
  options: configOption,
  maxPositionals: 1,
} satisfies CommandSpec;

async function answerStdin(
  agent: HookAgent,
  configPath: string | undefined,
  io: CliIo,
): Promise<HookAnswer> {
  try {
    const payload = await readAll(io.stdin);
    const { config } = await loadConfig(configPath, io.env);
    const gate = createHookGate({ config, env: io.env, agent });
    try {
      return await gate.answer(payload);
    } finally {
      await gate.close();
    }
  } catch (error) {
    const err = error instanceof Error ? error : new Error(String(error));
    return {
      kind: 'fail',
      reason: `Custode could not decide (${err.name}: ${err.message}); blocked (fail closed)`,
    };
  }
}

/** Run `custode hook <agent> [--config path]`. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(argv, spec);
  const agent = positionals[0] ?? '';
  if (!isAgent(agent)) {
    io.stderr.write(
      `custode hook: unknown agent "${agent}". Fix: use one of ${Object.keys(replies).join(', ')}; blocked (fail closed)\n`,
    );
    return 2;
  }
  const out = replies[agent](await answerStdin(agent, values.config, io));
  io.stdout.write(out.stdout);
  io.stderr.write(out.stderr);
  return out.exitCode;
}
