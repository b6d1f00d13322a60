// `custode doctor`, run in-process with captured streams.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createPairingStore, pairingFile } from '../../channels/pairing/pairing-store.ts';
import { run } from '../../runtime/cli/doctor.ts';
import { createOutboxStore } from '../../runtime/outbox/outbox-store.ts';
import { startSlackApi } from '../channels/slack/slack-api.ts';
import { startEmulator } from '../channels/telegram/emulator.ts';

async function doctor(
  argv: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; out: string }> {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await run(argv, {
    stdin: new PassThrough(),
    stdout,
    stderr: new PassThrough(),
    env: { ...process.env, OLLAMA_HOST: 'http://127.0.0.1:9', ...env },
  });
  return { code, out };
}

/** Nothing listens here: a token check fails at once, as with no network. */
const dead = 'http://127.0.0.1:9';

function configFile(yaml: string): string {
  const dir = mkdtempSync(join(process.env.HOME ?? '', 'doctor-'));
  const file = join(dir, 'config.yaml');
  writeFileSync(file, yaml);
  return file;
}

describe('custode doctor', () => {
  it('reports provider, sandbox, log locations and channels for the embedded default', async () => {
    const { code, out } = await doctor([]);
    expect(code).toBe(0);
    expect(out).toContain('(not found: using the embedded defaults)');
    expect(out).toContain('model: offline (offline): no OPENAI_API_KEY and no Ollama');
    expect(out).toContain('sandbox: bubblewrap found');
    expect(out).toContain(join(process.env.XDG_DATA_HOME ?? '', 'custode', 'vaglio'));
    expect(out).toContain('ok: nothing to fix');
  });

  it('names the judges in use, and reports an impossible judge setup as a problem', async () => {
    const rules = await doctor([]);
    expect(rules.out).toContain('judges: rule-based-v1 (threshold 0.3); no LLM judge');
    const llm = await doctor([], { CUSTODE_JUDGE_KIND: 'llm-v1', CUSTODE_JUDGE_THRESHOLD: '0.4' });
    expect(llm.out).toContain(
      'judges: rule-based-v1 (threshold 0.4); LLM judges llm (min_score 0.5, fail_closed), mode sequence',
    );
    const keyless = await doctor([
      '--config',
      configFile('vaglio:\n  judges:\n    - provider: openai\n'),
    ]);
    expect(keyless.code).toBe(1);
    expect(keyless.out).toContain('provider openai needs OPENAI_API_KEY');
    const bad = await doctor([], { CUSTODE_JUDGE_KIND: 'oracle' });
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('PROBLEM judges: CUSTODE_JUDGE_KIND: "oracle" is not a judge kind');
  });

  it('names missing tokens for enabled channels, with the fix', async () => {
    const file = configFile(
      'channels:\n  telegram:\n    enabled: true\n  slack:\n    enabled: true\n',
    );
    const { code, out } = await doctor(['--config', file], { OPENAI_API_KEY: 'sk-x' });
    expect(code).toBe(1);
    expect(out).toContain('model: openai');
    expect(out).toContain('TELEGRAM_BOT_TOKEN is not set. Fix:');
    expect(out).toContain('SLACK_APP_TOKEN is not set');
    expect(out).toContain('telegram is enabled but nobody may talk to the bot yet');
    expect(out).toContain('slack is enabled but nobody may talk to the bot yet');
    expect(out).toContain('5 problem(s) to fix');
  });

  it('names the bad field of an invalid config and how to fix it', async () => {
    const file = configFile('planner:\n  max_steps: zero\n');
    const { code, out } = await doctor(['--config', file]);
    expect(code).toBe(1);
    expect(out).toContain('planner.max_steps');
    expect(out).toContain('Fix: give a number');
  });

  it('flags a roots.write folder that does not exist, and a file given as one', async () => {
    const file = configFile(`roots:\n  write: ['~/nowhere', '${configFile('x: 1')}']\n`);
    const { code, out } = await doctor(['--config', file]);
    expect(code).toBe(1);
    expect(out).toMatch(
      /roots\.write: ~\/nowhere \(\S+\/nowhere\) does not exist.*Fix: mkdir -p \S+\/nowhere/,
    );
    expect(out).toContain('config.yaml) is not a directory');
  });

  it('flags the README placeholder id, and an enabled Slack nobody may use until someone pairs', async () => {
    const env = {
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_APP_TOKEN: 'xapp-1',
      TELEGRAM_BOT_TOKEN: '1:a',
      TELEGRAM_API_ROOT: dead,
    };
    const placeholder = configFile(
      'channels:\n  telegram:\n    enabled: true\n    allowed_users: [123456789]\n',
    );
    const fake = await doctor(['--config', placeholder], env);
    expect(fake.out).toContain('channels.telegram: 123456789 is the example id from the README');
    expect(fake.code).toBe(1);
    const slack = configFile(`channels:\n  slack:\n    enabled: true\n    api_url: ${dead}/api/\n`);
    const nobody = await doctor(['--config', slack], env);
    expect(nobody.out).toContain('slack: 0 allowed in the config, 0 paired');
    expect(nobody.out).toContain('1 problem(s) to fix');
    await createPairingStore(
      pairingFile(join(process.env.XDG_STATE_HOME ?? '', 'custode'), 'slack'),
    ).add('U42');
    const paired = await doctor(['--config', slack], env);
    expect(paired.out).toContain('slack: 0 allowed in the config, 1 paired');
    expect(paired.out).toContain('ok: nothing to fix');
  });

  it("reports exactly what the README's example config needs, and ok once given it", async () => {
    const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
    const yaml =
      /A config for a laptop daemon[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const home = mkdtempSync(join(process.env.HOME ?? '', 'readme-home-'));
    const bare = {
      HOME: home,
      XDG_STATE_HOME: join(home, '.local', 'state'),
      TELEGRAM_API_ROOT: dead,
    };
    const printed = await doctor(['--config', configFile(yaml)], bare);
    const problems = printed.out.split('\n').filter((line) => line.includes('PROBLEM'));
    expect(problems.map((line) => /PROBLEM (\S+)/.exec(line)?.[1])).toEqual([
      'judges:',
      'roots.write:',
      'telegram',
      'channels.telegram:',
    ]);
    expect(printed.out).toContain('OPENAI_API_KEY');
    // What the README says to do before `custode daemon`:
    mkdirSync(join(home, 'projects'));
    const mine = configFile(yaml.replace('123456789', '987654321'));
    const ready = await doctor(['--config', mine], {
      ...bare,
      OPENAI_API_KEY: 'sk-test',
      TELEGRAM_BOT_TOKEN: '1:abc',
    });
    expect(ready.out).toContain('ok: nothing to fix');
  });

  it('asks Telegram and Slack whether the tokens work: accepted, rejected, or unreachable', async () => {
    const emulator = await startEmulator();
    const slackApi = await startSlackApi();
    const refusing = createServer((_request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ok: false, error_code: 401, description: 'Unauthorized' }));
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      await createPairingStore(
        pairingFile(join(process.env.XDG_STATE_HOME ?? '', 'custode'), 'telegram'),
      ).add('5');
      const yaml = (slackUrl: string) =>
        configFile(
          `channels:\n  telegram:\n    enabled: true\n  slack:\n    enabled: true\n    allowed_users: [U1]\n    api_url: ${slackUrl}\n`,
        );
      const tokens = {
        TELEGRAM_BOT_TOKEN: emulator.token,
        SLACK_BOT_TOKEN: 'xoxb-1',
        SLACK_APP_TOKEN: 'xapp-1',
      };
      const good = await doctor(['--config', yaml(slackApi.url)], {
        ...tokens,
        TELEGRAM_API_ROOT: emulator.apiRoot,
      });
      expect(good.out).toContain('telegram: token accepted, the bot is @TestNameBot');
      expect(good.out).toContain(
        'slack: Slack accepted SLACK_BOT_TOKEN (workspace Test, bot user UBOT)',
      );
      expect(good.out).toContain('ok: nothing to fix');

      slackApi.rejectTokens();
      const { port } = refusing.address() as AddressInfo;
      const bad = await doctor(['--config', yaml(slackApi.url)], {
        ...tokens,
        TELEGRAM_API_ROOT: `http://127.0.0.1:${String(port)}`,
      });
      expect(bad.out).toContain(
        'PROBLEM Telegram rejected TELEGRAM_BOT_TOKEN (401: Unauthorized). Fix:',
      );
      expect(bad.out).toContain('PROBLEM Slack rejected SLACK_BOT_TOKEN: invalid_auth. Fix:');
      expect(bad.code).toBe(1);

      const away = await doctor(['--config', yaml(`${dead}/api/`)], {
        ...tokens,
        TELEGRAM_API_ROOT: dead,
      });
      expect(away.out).toContain('note: cannot reach Telegram to check the token');
      expect(away.out).toContain(`note: cannot reach Slack at ${dead}/api/`);
      expect(away.out).toContain('ok: nothing to fix');
    } finally {
      refusing.close();
      await slackApi.close();
      await emulator.stop();
    }
  });

  it('says when the state dir cannot be written (a file stands where it should be)', async () => {
    const root = mkdtempSync(join(process.env.HOME ?? '', 'doctor-state-'));
    writeFileSync(join(root, 'custode'), 'not a dir');
    const { code, out } = await doctor([], { XDG_STATE_HOME: root });
    expect(code).toBe(1);
    expect(out).toContain(
      `PROBLEM cannot write: a file stands where its directory should be (EEXIST) at ${join(root, 'custode')}`,
    );
    expect(out).toContain('the daemon refuses to serve until then');
  });

  it('reports messages a channel has not taken, since when and the last error', async () => {
    const root = mkdtempSync(join(process.env.HOME ?? '', 'doctor-outbox-'));
    const before = await doctor([], { XDG_STATE_HOME: root });
    expect(before.out).not.toContain('undelivered');
    const store = createOutboxStore(join(root, 'custode', 'outbox', 'telegram'));
    for (const [seq, attempts] of [
      [1, 3],
      [2, 1],
    ] as const)
      await store.save({
        v: 1,
        id: `m${String(seq)}`,
        seq,
        chatId: '7',
        createdAt: `2026-11-23T17:4${String(seq)}:00.000Z`,
        expiresAt: '2026-11-24T17:40:00.000Z',
        attempts,
        lastError: seq === 2 ? 'the Bot API could not be reached' : '502 Bad Gateway',
        what: { kind: 'text', text: 'hello' },
      });
    writeFileSync(join(root, 'custode', 'outbox', 'telegram', 'm3.json'), '{"v":1,');
    const { code, out } = await doctor([], { XDG_STATE_HOME: root });
    expect(code).toBe(1);
    expect(out).toContain(
      'PROBLEM telegram: 2 message(s) undelivered since 2026-11-23 17:41 UTC (4 failed attempt(s), last: the Bot API could not be reached). The daemon retries them and gives up after 1440 minutes, telling the chat.',
    );
    expect(out).toContain('PROBLEM telegram outbox: 1 unreadable entry');
    // Doctor only looks: the unreadable entry is still where it was.
    expect(readFileSync(join(root, 'custode', 'outbox', 'telegram', 'm3.json'), 'utf8')).toBe(
      '{"v":1,',
    );
  });
});
