// Repeated channel failures are visible: a real `custode daemon` on Telegram behind a proxy
// that fails every getUpdates for a while. /healthz turns 503 and names the run of failures,
// `custode doctor` reports it as a problem while that daemon runs, and both clear (and the
// log says so) once Telegram answers again.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../runtime/bench/free-port.ts';
import { startLongPollProxy } from '../../runtime/bench/long-poll-proxy.ts';
import { run as doctor } from '../../runtime/cli/doctor.ts';
import { freshHome, startCustode } from '../channels/local/run-custode.ts';
import { startEmulator } from '../channels/telegram/emulator.ts';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function healthz(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function doctorSays(env: NodeJS.ProcessEnv): Promise<string> {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await doctor([], { stdin: new PassThrough(), stdout, stderr: new PassThrough(), env });
  return out;
}

describe('channel health', () => {
  it('shows a run of failed polls on /healthz and in doctor, and clears when Telegram is back', async () => {
    const emulator = await startEmulator();
    cleanup.push(() => emulator.stop());
    let down = false;
    const badGateway = JSON.stringify({ ok: false, error_code: 502, description: 'Bad Gateway' });
    const proxy = await startLongPollProxy(emulator.server, {
      hook: (method) => {
        return down && method === 'getUpdates' ? { status: 502, text: badGateway } : undefined;
      },
    });
    cleanup.push(() => proxy.close());
    const port = await freePort();
    const home = freshHome();
    mkdirSync(join(home, '.config', 'custode'), { recursive: true });
    writeFileSync(
      join(home, '.config', 'custode', 'config.yaml'),
      `health:\n  port: ${String(port)}\nchannels:\n  telegram:\n    enabled: true\n    api_root: ${proxy.url}\n    allowed_users: [1]\n`,
    );
    const env = { CUSTODE_LOG_LEVEL: 'info', TELEGRAM_BOT_TOKEN: emulator.token };
    const daemon = startCustode(['daemon'], env, home);
    cleanup.push(async () => {
      daemon.child.kill('SIGKILL');
      await daemon.exited;
    });
    const slow = { timeout: 60_000, interval: 200 };
    await vi.waitFor(() => expect(daemon.stderr()).toContain('daemon serving'), slow);
    const url = `http://127.0.0.1:${String(port)}/healthz`;
    expect((await healthz(url)).status).toBe(200);

    down = true;
    const failing = await vi.waitFor(async () => {
      const answer = await healthz(url);
      expect(answer.status).toBe(503);
      return answer.body;
    }, slow);
    expect(failing.ok).toBe(false);
    expect(String((failing.failing as string[])[0])).toMatch(
      /^telegram polling: \d+ failures in a row since .+ UTC \(last: .*502.*\)$/,
    );
    expect(daemon.stderr()).toContain('telegram polling has failed 3 times in a row');
    const doctorEnv = {
      ...process.env,
      HOME: home,
      XDG_STATE_HOME: join(home, '.local', 'state'),
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local', 'share'),
      OLLAMA_HOST: 'http://127.0.0.1:9',
      TELEGRAM_BOT_TOKEN: emulator.token,
    };
    await vi.waitFor(
      async () =>
        expect(await doctorSays(doctorEnv)).toMatch(
          /PROBLEM telegram polling: \d+ failures in a row since .+\. Fix: check the network/,
        ),
      slow,
    );

    down = false;
    await vi.waitFor(async () => expect((await healthz(url)).status).toBe(200), slow);
    expect(daemon.stderr()).toContain('telegram polling works again after');
    await vi.waitFor(
      async () => expect(await doctorSays(doctorEnv)).not.toContain('failures in a row'),
      slow,
    );
    daemon.child.kill('SIGTERM');
    expect(await daemon.exited).toBe(0);
  }, 150_000);
});
