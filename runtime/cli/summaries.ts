// What each `custode` command does, in one line: the usage list and `--help` show it. Shared by
// the whole CLI (main.ts) and the quick bundle of the decision commands (quick.ts).
export const summaries = {
  chat: 'talk to Custode in this terminal',
  daemon: 'serve the channels enabled in the config',
  check: 'run the pipeline on proposed calls (JSON in, JSON out), nothing executed',
  hook: 'gate another agent: `hook claude-code` or `hook codex` (PreToolUse JSON on stdin)',
  serve: 'answer Claude Code http hooks on 127.0.0.1 (or a unix socket), kept warm',
  log: 'summarise the audit log (`log turns`: recent turns)',
  doctor: 'what is set up and what is missing',
  pair: 'let people talk to the bot: `pair list`, `pair approve <code>`, `pair revoke <id>`',
  service: 'run the daemon as a systemd user service (`service install`), or print a launchd agent',
  bench: 'measure the pipeline, sandbox, planner and channels',
  eval: 'score the guard and policy on the public corpora',
  'eval-tasks': 'replay the everyday tasks through the real chat: cards shown vs wanted',
} as const;

export type CommandName = keyof typeof summaries;
