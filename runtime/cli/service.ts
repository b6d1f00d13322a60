// `custode service`: run the daemon as a systemd user service (or print a launchd agent), so
// it starts with the session, restarts when it fails, and stops cleanly (no orphaned daemon).
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { configDir, homeDir } from '../paths.ts';
import { helpText, parseCommand, UsageError, type CliIo, type CommandSpec } from './io.ts';
import { launchdPlist, systemdUnit, type ServicePaths } from './service-units.ts';
import { startDir } from './start-dir.ts';

export const spec = {
  usage: 'custode service install|uninstall|print [--launchd] [--config path]',
  details: [
    'install         write the systemd user unit ~/.config/systemd/user/custode.service',
    'uninstall       remove it (after: systemctl --user disable --now custode)',
    'print           show the unit without writing it',
    '--launchd       print: a macOS launchd agent instead',
    '--config path   the config the daemon reads (default: the usual config file)',
  ],
  options: { config: { type: 'string' }, launchd: { type: 'boolean' } },
  maxPositionals: 1,
} satisfies CommandSpec;

function unitFile(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME?.startsWith('/')
    ? env.XDG_CONFIG_HOME
    : join(homeDir(env), '.config');
  return join(base, 'systemd', 'user', 'custode.service');
}

function servicePaths(env: NodeJS.ProcessEnv, config: string | undefined): ServicePaths {
  return {
    node: process.execPath,
    cli: resolve(import.meta.dirname, 'custode.cjs'),
    envFile: join(configDir(env), 'env'),
    ...(config === undefined ? {} : { config: resolve(startDir(env), config) }),
  };
}

/** Run `custode service install|uninstall|print`. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(argv, spec);
  const [action] = positionals;
  const paths = servicePaths(io.env, values.config);
  const file = unitFile(io.env);
  if (values.launchd === true && action !== 'print')
    throw new UsageError(
      '--launchd goes with print (launchd agents are loaded by hand)',
      helpText(spec),
    );
  switch (action) {
    case 'print':
      io.stdout.write(
        values.launchd === true
          ? launchdPlist(paths, join(homeDir(io.env), 'Library', 'Logs', 'custode.log'))
          : systemdUnit(paths),
      );
      return 0;
    case 'install':
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, systemdUnit(paths));
      io.stdout.write(
        [
          `Wrote ${file}.`,
          `Put the tokens in ${paths.envFile} (KEY=value lines, chmod 600), then:`,
          '  systemctl --user daemon-reload',
          '  systemctl --user enable --now custode',
          '  journalctl --user -u custode -f',
          '',
        ].join('\n'),
      );
      return 0;
    case 'uninstall':
      await rm(file, { force: true });
      io.stdout.write(`Removed ${file} (run systemctl --user daemon-reload).\n`);
      return 0;
    default:
      throw new UsageError(
        action === undefined
          ? 'Say what to do: install, uninstall or print'
          : `Unknown action '${action}'`,
        helpText(spec),
      );
  }
}
