// Where Custode keeps things, read from the environment at call time (tests and
// daemons may change HOME and XDG_* after import).
import { homedir } from 'node:os';
import { join } from 'node:path';

export function homeDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.HOME && env.HOME !== '' ? env.HOME : homedir();
}

function xdg(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const value = env[name];
  return value && value.startsWith('/') ? value : join(homeDir(env), fallback);
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(xdg(env, 'XDG_CONFIG_HOME', '.config'), 'custode');
}

export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(xdg(env, 'XDG_DATA_HOME', '.local/share'), 'custode');
}

export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(xdg(env, 'XDG_STATE_HOME', '.local/state'), 'custode');
}

/** `YYYY-MM` in UTC, the name of a monthly log file. */
export function monthKey(date: Date = new Date()): string {
  return date.toISOString().slice(0, 7);
}

/** The dirs a serving daemon must be able to write: state (cards, rules, history, turns) and the audit log. */
export function ownDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  const state = stateDir(env);
  return [
    state,
    join(state, 'approvals'),
    join(state, 'history'),
    join(state, 'turns'),
    join(dataDir(env), 'vaglio'),
  ];
}
