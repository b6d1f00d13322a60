// The command line itself: --version, --help on every command, --config in both spellings,
// unknown flags and extra arguments refused with the usage, config errors that read well.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../runtime/cli/main.ts';
import { runCli } from './cli-helpers.ts';

async function custode(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const stdin = new PassThrough();
  stdin.end('/help\n');
  const code = await main(argv, {
    stdin,
    stdout,
    stderr,
    env: { ...process.env, OLLAMA_HOST: 'http://127.0.0.1:9' },
  });
  return { code, out, err };
}

function configFile(yaml: string): string {
  const file = join(mkdtempSync(join(process.env.HOME ?? '', 'cli-')), 'config.yaml');
  writeFileSync(file, yaml);
  return file;
}

const commands = [
  'chat',
  'daemon',
  'check',
  'hook',
  'log',
  'doctor',
  'pair',
  'service',
  'bench',
  'eval',
];

describe('custode command line', () => {
  it('prints the version from package.json', async () => {
    const { version } = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8'),
    ) as { version: string };
    const run = await runCli(['--version'], '');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`custode ${version}\n`);
  });

  it.each(commands)('%s --help prints its usage and runs nothing', async (name) => {
    const { code, out, err } = await custode([name, '--help']);
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out).toMatch(new RegExp(`^usage: custode ${name}`));
    expect(out).not.toContain('Custode: model');
  });

  it('chat -h from the real bin does not start a chat', async () => {
    const run = await runCli(['chat', '-h'], '/ls\n');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('usage: custode chat [--config path]');
    expect(run.stdout).not.toContain('Custode: model');
  });

  it('reads --config path and --config=path alike', async () => {
    const file = configFile('planner:\n  max_steps: 3\n');
    for (const argv of [
      ['doctor', '--config', file],
      ['doctor', `--config=${file}`],
    ]) {
      const { out } = await custode(argv);
      expect(out).toContain(`config: ${file} (valid)`);
    }
  });

  it('refuses an unknown or misspelt flag with the usage, exit 2, running nothing', async () => {
    const { code, out, err } = await custode(['chat', '--confg', 'x.yaml']);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain("custode chat: Unknown option '--confg'");
    expect(err).toContain('usage: custode chat [--config path]');
  });

  it('refuses a flag without its value, an extra argument, and an unknown command', async () => {
    const missing = await custode(['doctor', '--config']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("Option '--config <value>' argument missing");
    const extra = await custode(['doctor', 'now']);
    expect(extra.code).toBe(2);
    expect(extra.err).toContain("Unexpected argument 'now'");
    const log = await custode(['log', 'turn']);
    expect(log.code).toBe(2);
    expect(log.err).toContain("Unknown argument 'turn'");
    const unknown = await custode(['--verbose']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown option "--verbose"');
    expect(unknown.err).toContain('usage: custode <command>');
  });

  it('eval without the corpora names the folder it looked in and the flag that fixes it', async () => {
    const { code, err } = await custode(['eval', '--dir', '/nonexistent/eval']);
    expect(code).toBe(1);
    expect(err).toContain('custode eval: cannot read /nonexistent/eval/redcode-bash.jsonl');
    expect(err).toContain('Fix: pass --dir <folder holding redcode-bash.jsonl>');
  });

  it('says how to write the value a config field needs, in YAML words', async () => {
    const file = configFile('channels: 5\nroots:\n  write: ~/x\n');
    const { code, err } = await custode(['chat', '--config', file]);
    expect(code).toBe(78);
    expect(err).toContain('channels: Invalid input: expected object, received number');
    expect(err).toContain('Fix: give a mapping: indented `key: value` lines under it.');
    expect(err).toContain('roots.write');
    expect(err).toContain('Fix: give a list: `[a, b]`, or one `- item` line each.');
    expect(err).not.toContain('give a object');
  });
});
