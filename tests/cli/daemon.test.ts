// `custode daemon` as a real process: the local channel on its stdin, clean stops.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCustode } from '../channels/local/run-custode.ts';

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
    const cli = join(import.meta.dirname, '..', '..', 'runtime', 'cli', 'custode.mjs');
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
});
