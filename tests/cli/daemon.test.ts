// `custode daemon` as a real process: the local channel on its stdin, clean stops.
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCustode, startCustode } from '../channels/local/run-custode.ts';

function homeWithConfig(yaml: string): string {
  const home = realpathSync(mkdtempSync(join(process.env.HOME ?? tmpdir(), 'custode-daemon-')));
  mkdirSync(join(home, '.config', 'custode'), { recursive: true });
  writeFileSync(join(home, '.config', 'custode', 'config.yaml'), yaml);
  return home;
}

describe('custode daemon', () => {
  it('serves the local channel and stops at the end of its input', async () => {
    const home = homeWithConfig('channels:\n  local:\n    enabled: true\n');
    const { code, stdout } = await runCustode(
      ['daemon'],
      '/write ~/d.txt from the daemon\no\n',
      { CUSTODE_LOG_LEVEL: 'warn' },
      home,
    );
    expect(code).toBe(0);
    expect(stdout).toContain('Approval needed: Create ~/d.txt');
    expect(readFileSync(join(home, 'd.txt'), 'utf8')).toBe('from the daemon');
  });

  it('refuses to start with no channel enabled, saying which setting to change', async () => {
    const { code, stderr } = await runCustode(['daemon'], '');
    expect(code).toBe(78);
    expect(stderr).toContain('channels.local.enabled');
  });

  it('fails fast, naming the missing token, when Telegram is enabled without one', async () => {
    const home = homeWithConfig('channels:\n  telegram:\n    enabled: true\n');
    const { code, stderr } = await runCustode(['daemon'], '', {}, home);
    expect(code).toBe(78);
    expect(stderr).toContain('TELEGRAM_BOT_TOKEN is not set');
  });

  it('stops cleanly on SIGTERM', async () => {
    const home = homeWithConfig('channels:\n  local:\n    enabled: true\n');
    const cli = join(import.meta.dirname, '..', '..', 'runtime', 'cli', 'custode.cjs');
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      USER: 'tester',
      OLLAMA_HOST: 'http://127.0.0.1:9',
      CUSTODE_LOG_LEVEL: 'info',
    };
    // stdin stays open: only the signal can end this daemon.
    const child = spawn(process.execPath, [cli, 'daemon'], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    let sent = false;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (!sent && stderr.includes('daemon serving')) {
        sent = true;
        child.kill('SIGTERM');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stderr).toContain('"reason":"SIGTERM"');
  });

  it('reloads its config on SIGHUP, and goes on with the old one when the new one does not load', async () => {
    const configFile = (home: string) => join(home, '.config', 'custode', 'config.yaml');
    const home = homeWithConfig(
      'channels:\n  local:\n    enabled: true\napprovals:\n  always_ask: [fs_list]\n',
    );
    writeFileSync(join(home, 'marker.txt'), 'here');
    const daemon = startCustode(['daemon'], { CUSTODE_LOG_LEVEL: 'info' }, home);
    const slow = { timeout: 60_000, interval: 100 };
    const serving = () => daemon.stderr().split('daemon serving').length - 1;
    const cards = () => daemon.stdout().split('Approval needed').length - 1;
    await vi.waitFor(() => expect(serving()).toBe(1), slow);
    daemon.child.stdin.write('/ls ~\n');
    await vi.waitFor(() => expect(cards()).toBe(1), slow);
    daemon.child.stdin.write('n\n');
    await vi.waitFor(() => expect(daemon.stdout()).toContain('declined'), slow);

    writeFileSync(configFile(home), 'channels:\n  local:\n    enabled: true\n');
    daemon.child.kill('SIGHUP');
    await vi.waitFor(() => expect(serving()).toBe(2), slow);
    expect(daemon.stderr()).toContain('SIGHUP: config reloaded');
    daemon.child.stdin.write('/ls ~\n');
    await vi.waitFor(() => expect(daemon.stdout()).toContain('marker.txt'), slow);
    expect(cards()).toBe(1);

    writeFileSync(configFile(home), 'channels: [not, a, map]\n');
    daemon.child.kill('SIGHUP');
    await vi.waitFor(
      () =>
        expect(daemon.stderr()).toContain('SIGHUP: the config did not load, so the daemon goes on'),
      slow,
    );
    expect(serving()).toBe(2);
    daemon.child.kill('SIGTERM');
    expect(await daemon.exited).toBe(0);
  }, 120_000);

  it('refuses a second daemon on the same state dir, naming the first; a crashed one is waited out', async () => {
    const home = homeWithConfig('channels:\n  local:\n    enabled: true\n');
    const first = startCustode(['daemon'], { CUSTODE_LOG_LEVEL: 'info' }, home);
    await vi.waitFor(() => expect(first.stderr()).toContain('daemon serving'), {
      timeout: 60_000,
      interval: 100,
    });
    const second = await runCustode(['daemon'], '', {}, home);
    expect(second.code).toBe(75);
    expect(second.stderr).toContain(`Another Custode daemon (pid ${String(first.child.pid)} on `);
    expect(second.stderr).toContain('Fix: stop that daemon first');

    first.child.kill('SIGKILL');
    await first.exited;
    const third = await runCustode(['daemon'], '', { CUSTODE_LOG_LEVEL: 'info' }, home);
    expect(third.code).toBe(0);
    expect(third.stderr).toContain('the previous daemon ended without releasing the state dir');
    expect(third.stderr).toContain('daemon serving');
  }, 120_000);

  it('refuses to serve when it cannot write its state dir, saying where and why', async () => {
    const home = homeWithConfig('channels:\n  local:\n    enabled: true\n');
    writeFileSync(join(home, 'state-file'), 'a file where the state dir should be');
    const { code, stderr } = await runCustode(
      ['daemon'],
      '/write ~/never.txt x\no\n',
      { XDG_STATE_HOME: join(home, 'state-file') },
      home,
    );
    expect(code).toBe(73);
    expect(stderr).toContain('cannot write where it keeps its state and audit log');
    expect(stderr).toContain(`at ${join(home, 'state-file', 'custode')}`);
    expect(existsSync(join(home, 'never.txt'))).toBe(false);
  });
});
