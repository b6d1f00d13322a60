// Every test file gets its own HOME and XDG dirs (CI runs as root, and ~ would be /root,
// which the guard protects), a test that prints to the console fails, and a bare RegExp where
// a value is expected fails (see bare-regexp.ts).
// The HOME lives in /var/tmp, not /tmp: the sandbox gives every command a private /tmp, and
// /tmp is scratch to the guard, so a HOME inside it is not the ordinary home users have.
import { mkdtempSync, mkdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, expect, vi } from 'vitest';
import { refuseBareRegExp } from './bare-regexp.ts';

function makeHome(): string {
  try {
    return mkdtempSync('/var/tmp/custode-home-');
  } catch {
    return mkdtempSync(join(tmpdir(), 'custode-home-'));
  }
}

const home = realpathSync(makeHome());
for (const dir of ['.config', '.local/share', '.local/state', '.cache']) {
  mkdirSync(join(home, dir), { recursive: true });
}
// The runtime dir too: a spawned `custode hook` asks a `custode serve` listening there, and the
// person's own must never answer a test.
mkdirSync(join(home, '.run'), { mode: 0o700 });
process.env.HOME = home;
process.env.XDG_CONFIG_HOME = join(home, '.config');
process.env.XDG_DATA_HOME = join(home, '.local/share');
process.env.XDG_STATE_HOME = join(home, '.local/state');
process.env.XDG_CACHE_HOME = join(home, '.cache');
process.env.XDG_RUNTIME_DIR = join(home, '.run');
process.env.CUSTODE_LOG_LEVEL ??= 'silent';
for (const name of [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'OLLAMA_HOST',
  'CUSTODE_JUDGE_KIND',
  'CUSTODE_JUDGE_THRESHOLD',
  'TELEGRAM_BOT_TOKEN',
  'TELEGRAM_API_ROOT',
  'SLACK_BOT_TOKEN',
  'SLACK_APP_TOKEN',
  'SLACK_SIGNING_SECRET',
]) {
  // eslint-disable-next-line @typescript-eslint/no-dynamic-delete
  delete process.env[name];
}

expect.addEqualityTesters([refuseBareRegExp]);

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

const consoleMethods = ['log', 'info', 'warn', 'error', 'debug'] as const;
const printed: string[] = [];
beforeEach(() => {
  printed.length = 0;
  for (const method of consoleMethods) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      printed.push(`console.${method}: ${args.map(String).join(' ')}`);
    });
  }
});
afterEach(() => {
  vi.restoreAllMocks();
  if (printed.length > 0) {
    throw new Error(`A test must not print to the console:\n${printed.join('\n')}`);
  }
});
