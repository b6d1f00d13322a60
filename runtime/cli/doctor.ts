// `custode doctor`: what is set up and what is missing, each problem with its fix.
import { join } from 'node:path';
import { bwrapAvailable } from '../../executors/sandbox/bwrap.ts';
import { loadConfig, type Config } from '../config.ts';
import { ConfigError } from '../errors.ts';
import { selectProvider } from '../llm/select.ts';
import { judgeClientFor } from '../vaglio/judge-clients.ts';
import { createLlmPanel, enabledJudges } from '../vaglio/panel.ts';
import { turnLogDir } from '../log/turn-log.ts';
import { dataDir, ownDirs, stateDir } from '../paths.ts';
import { unwritableDirs } from '../state-store.ts';
import { checkTokensOnline } from './doctor-tokens.ts';
import { checkChannelHealth, checkOutboxes } from './doctor-channels.ts';
import { checkPeople, checkWriteRoots, type DoctorReport } from './doctor-setup.ts';
import { CONFIG_DETAIL, configOption, parseCommand, type CliIo, type CommandSpec } from './io.ts';

export const spec = {
  usage: 'custode doctor [--config path]',
  details: [CONFIG_DETAIL],
  options: configOption,
} satisfies CommandSpec;

interface Report {
  readonly lines: string[];
  problems: number;
}

function problem(report: Report, line: string): void {
  report.lines.push(`  PROBLEM ${line}`);
  report.problems += 1;
}

function channelTokens(config: Config, env: NodeJS.ProcessEnv, report: Report): void {
  const { local, telegram, slack } = config.channels;
  report.lines.push(
    `channels: local ${local.enabled ? 'on' : 'off'}, telegram ${telegram.enabled ? 'on' : 'off'}, slack ${slack.enabled ? 'on' : 'off'}`,
  );
  if (telegram.enabled && !env.TELEGRAM_BOT_TOKEN)
    problem(
      report,
      'telegram is enabled but TELEGRAM_BOT_TOKEN is not set. Fix: export the token from @BotFather.',
    );
  if (slack.enabled) {
    const needed =
      slack.mode === 'socket'
        ? ['SLACK_BOT_TOKEN', 'SLACK_APP_TOKEN']
        : ['SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET'];
    for (const name of needed)
      if (!env[name])
        problem(
          report,
          `slack (${slack.mode} mode) is enabled but ${name} is not set. Fix: export it from the Slack app settings.`,
        );
  }
  if (!local.enabled && !telegram.enabled && !slack.enabled)
    report.lines.push(
      '  note: no channel is enabled, so `custode daemon` has nothing to serve (`custode chat` still works).',
    );
}

function judges(config: Config, env: NodeJS.ProcessEnv, report: Report): void {
  const threshold = env.CUSTODE_JUDGE_THRESHOLD ?? String(config.vaglio.threshold ?? 0.3);
  let enabled;
  try {
    enabled = enabledJudges(config, env);
    // Builds each judge's client (no request is sent): a missing key or an offline judge shows here.
    createLlmPanel(config, env, judgeClientFor(config, env));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problem(report, `judges: ${error.message}`);
    return;
  }
  const llm =
    enabled.length === 0
      ? 'no LLM judge (set CUSTODE_JUDGE_KIND=llm-v1 or vaglio.judges to add one)'
      : `LLM judges ${enabled.map((judge) => `${judge.name} (min_score ${String(judge.min_score)}, ${judge.on_failure})`).join(', ')}, mode ${config.vaglio.mode}`;
  report.lines.push(`judges: rule-based-v1 (threshold ${threshold}); ${llm}`);
}

/** Run `custode doctor [--config path]`; exit 1 when something needs fixing. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommand(argv, spec);
  const report: Report = { lines: [], problems: 0 };
  let config: Config;
  try {
    const loaded = await loadConfig(values.config, io.env);
    config = loaded.config;
    report.lines.push(
      `config: ${loaded.path} ${loaded.found ? '(valid)' : '(not found: using the embedded defaults)'}`,
    );
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stdout.write(`config: INVALID\n${error.message}\n`);
    return 1;
  }
  const { client, reason } = await selectProvider(config, io.env);
  report.lines.push(`model: ${client.provider} (${client.model}): ${reason}`);
  judges(config, io.env, report);
  if (config.sandbox.mode === 'off') {
    report.lines.push('sandbox: off (config sandbox.mode): shell commands run without bubblewrap');
  } else if (await bwrapAvailable()) {
    report.lines.push(
      `sandbox: bubblewrap found, network ${config.sandbox.network ? 'allowed' : 'blocked'} inside`,
    );
  } else {
    problem(
      report,
      'sandbox: bubblewrap (bwrap) is missing, so shell_exec refuses. Fix: apt-get install bubblewrap (or dnf install bubblewrap).',
    );
  }
  report.lines.push(`audit log: ${join(dataDir(io.env), 'vaglio')}/YYYY-MM.jsonl`);
  report.lines.push(
    `turn log: ${turnLogDir(io.env)}/YYYY-MM.jsonl (kept ${String(config.logs.turn_retention_days)} days)`,
  );
  report.lines.push(`state: ${stateDir(io.env)} (history, approvals, rules, pairing)`);
  for (const unwritable of await unwritableDirs(ownDirs(io.env)))
    problem(
      report,
      `cannot write: ${unwritable}. Fix: free space or fix the permissions there; the daemon refuses to serve until then.`,
    );
  const setup: DoctorReport = {
    line: (text) => report.lines.push(text),
    problem: (text) => problem(report, text),
  };
  await checkWriteRoots(config, io.env, setup);
  channelTokens(config, io.env, report);
  await checkPeople(config, io.env, setup);
  await checkTokensOnline(config, io.env, setup);
  await checkOutboxes(config, io.env, setup);
  await checkChannelHealth(io.env, setup);
  report.lines.push(
    report.problems === 0 ? 'ok: nothing to fix' : `${String(report.problems)} problem(s) to fix`,
  );
  io.stdout.write(`${report.lines.join('\n')}\n`);
  return report.problems === 0 ? 0 : 1;
}
