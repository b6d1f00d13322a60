// `custode doctor`, run in-process with captured streams.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run } from '../../runtime/cli/doctor.ts';

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
    expect(out).toContain('3 problem(s) to fix');
  });

  it('names the bad field of an invalid config and how to fix it', async () => {
    const file = configFile('planner:\n  max_steps: zero\n');
    const { code, out } = await doctor(['--config', file]);
    expect(code).toBe(1);
    expect(out).toContain('planner.max_steps');
    expect(out).toContain('Fix: give a number');
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
});
