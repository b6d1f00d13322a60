// `custode service`: the systemd user unit it writes (checked by systemd-analyze where it is
// installed) and the launchd agent, whose shell line is run for real with a stand-in CLI.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../runtime/cli/main.ts';
import { launchdPlist, systemdUnit } from '../../runtime/cli/service-units.ts';

const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

async function service(
  argv: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await main(['service', ...argv], { stdin: new PassThrough(), stdout, stderr, env });
  return { code, out, err };
}

const paths = {
  node: '/opt/node 20/bin/node',
  cli: '/home/u/custode/runtime/cli/custode.mjs',
  config: '/home/u/my 50% config.yaml',
  envFile: '/home/u/.config/custode/env',
};

describe('custode service', () => {
  it('installs and removes the systemd user unit under XDG_CONFIG_HOME', async () => {
    const config = mkdtempSync(join(process.env.HOME ?? '', 'xdg-'));
    const env = { ...process.env, XDG_CONFIG_HOME: config };
    const installed = await service(['install'], env);
    expect(installed.code).toBe(0);
    const file = join(config, 'systemd', 'user', 'custode.service');
    expect(installed.out).toContain(`Wrote ${file}.`);
    expect(installed.out).toContain('systemctl --user enable --now custode');
    const unit = readFileSync(file, 'utf8');
    expect(unit).toContain(`ExecStart=${process.execPath} `);
    expect(unit).toMatch(/runtime\/cli\/custode\.cjs daemon\n/);
    expect(unit).toContain(`EnvironmentFile=-${join(config, 'custode', 'env')}`);
    expect(unit).toContain('Restart=on-failure');
    expect(unit).toContain('ExecReload=/bin/kill -HUP $MAINPID');
    expect((await service(['uninstall'], env)).code).toBe(0);
    expect(existsSync(file)).toBe(false);
    const bad = await service(['install', '--launchd'], env);
    expect(bad.code).toBe(2);
  });

  it('quotes paths with spaces and escapes % for systemd', () => {
    expect(systemdUnit(paths)).toContain(
      'ExecStart="/opt/node 20/bin/node" /home/u/custode/runtime/cli/custode.mjs daemon --config "/home/u/my 50%% config.yaml"',
    );
  });

  it.skipIf(!hasSystemdAnalyze)(
    'writes a unit systemd-analyze verify accepts (needs systemd-analyze)',
    () => {
      const dir = mkdtempSync(join(process.env.HOME ?? '', 'unit-'));
      const file = join(dir, 'custode.service');
      writeFileSync(
        file,
        systemdUnit({ node: process.execPath, cli: '/bin/true', envFile: join(dir, 'env') }),
      );
      const verified = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
      expect(verified.stderr).toBe('');
      expect(verified.status).toBe(0);
    },
  );

  it('prints a launchd agent whose shell line loads the secrets and runs the daemon', async () => {
    const printed = await service(['print', '--launchd'], process.env);
    expect(printed.out).toContain('<string>org.custode.daemon</string>');
    const dir = mkdtempSync(join(process.env.HOME ?? '', 'launchd-'));
    const cli = join(dir, "it's custode.mjs");
    writeFileSync(
      cli,
      'console.log(process.argv.slice(2).join(" "), process.env.TELEGRAM_BOT_TOKEN);\n',
    );
    const envFile = join(dir, 'env');
    writeFileSync(envFile, 'TELEGRAM_BOT_TOKEN=123:abc\n');
    const plist = launchdPlist(
      { node: process.execPath, cli, envFile, config: join(dir, 'c.yaml') },
      '/tmp/x.log',
    );
    const line = /<string>-c<\/string>\s*<string>([^<]*)<\/string>/.exec(plist)?.[1] ?? '';
    const command = line.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    const ran = spawnSync('/bin/sh', ['-c', command], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH },
    });
    expect(ran.stdout).toBe(`daemon --config ${join(dir, 'c.yaml')} 123:abc\n`);
  });
});
