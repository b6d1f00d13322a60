// `custode daemon`: serve the channels enabled in the config until SIGINT/SIGTERM (or, when
// the terminal is the only channel, until its input ends), then stop cleanly: channels
// first, then running turns are cancelled and the logs flushed. SIGHUP reloads the config
// and restarts the channels with it. One daemon per state dir: a second one refuses to
// start and names the first.
import { createAdapters } from '../../channels/registry.ts';
import type { ChannelAdapter } from '../../channels/adapter.ts';
import { createApp, type App } from '../app.ts';
import { unfinishedTurns } from '../log/unfinished-turns.ts';
import { startHealthz, type HealthzServer } from '../health/healthz.ts';
import { loadConfig, type Config } from '../config.ts';
import { ConfigError, StateDirBusy } from '../errors.ts';
import { createLogger, type Logger } from '../log/logger.ts';
import { ownDirs, stateDir } from '../paths.ts';
import { notServingText, unwritableDirs } from '../state-store.ts';
import { claimStateDir, type StateDirLease } from '../state-lock.ts';
import { isTty } from './chat.ts';
import { CONFIG_DETAIL, configOption, parseCommand, type CliIo, type CommandSpec } from './io.ts';
import { hangups, untilSignal } from './signals.ts';

const INTERRUPTED_WITHIN_MS = 24 * 60 * 60_000;

export const spec = {
  usage: 'custode daemon [--config path]',
  details: [CONFIG_DETAIL],
  options: configOption,
} satisfies CommandSpec;

/**
 * Run `custode daemon [--config path]`; exits 73 when its state or audit dirs cannot be
 * written, 75 when another daemon serves the state dir.
 */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommand(argv, spec);
  const { config } = await loadConfig(values.config, io.env);
  const logger = createLogger(io.env);
  const unwritable = await unwritableDirs(ownDirs(io.env));
  if (unwritable.length > 0) {
    io.stderr.write(`custode: ${notServingText(unwritable)}\n`);
    return 73;
  }
  let lease: StateDirLease;
  try {
    lease = await claimStateDir(stateDir(io.env), logger);
  } catch (error) {
    if (!(error instanceof StateDirBusy)) throw error;
    io.stderr.write(`custode: ${error.message}\n`);
    return 75;
  }
  const stop = untilSignal();
  const reload = hangups();
  try {
    let current: Config | null = config;
    while (current !== null)
      current = await serve(current, io, logger, {
        stop: stop.promise,
        reload: () => reloadConfig(values.config, io.env, logger, reload.next),
      });
    return 0;
  } finally {
    stop.dispose();
    reload.dispose();
    await lease.release();
  }
}

/**
 * Waits for a SIGHUP whose config file loads; a file that does not is logged and the daemon
 * goes on with what it has (a typo must not take the assistant down).
 */
async function reloadConfig(
  path: string | undefined,
  env: NodeJS.ProcessEnv,
  logger: Logger,
  nextHangup: () => Promise<'SIGHUP'>,
): Promise<Config> {
  for (;;) {
    await nextHangup();
    try {
      const { config } = await loadConfig(path, env);
      logger.info('SIGHUP: config reloaded; restarting the channels with it');
      return config;
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      logger.error(
        { err: error },
        `SIGHUP: the config did not load, so the daemon goes on with the one it has: ${error.message}`,
      );
    }
  }
}

/** A turn cut by a crash in the last day gets a word in its chat (older ones are history). */
async function tellInterruptedTurns(app: App): Promise<void> {
  const since = new Date(Date.now() - INTERRUPTED_WITHIN_MS);
  const told = await app.service.tellInterrupted(await unfinishedTurns(app.env, since));
  if (told > 0) app.logger.warn({ turns: told }, 'told chats about turns a crash cut short');
}

/**
 * Serves the channels with `config` until a stop signal or the end of their input (null), or
 * until a reloaded config (returned: the caller serves again with it). Cards, rules and
 * histories are on disk, so a reload keeps them; a turn running at that moment is cancelled.
 */
async function serve(
  config: Config,
  io: CliIo,
  logger: Logger,
  until: { stop: Promise<string>; reload: () => Promise<Config> },
): Promise<Config | null> {
  const app = await createApp({ config, env: io.env, logger });
  const { adapters, missing } = await createAdapters({
    app,
    stdin: io.stdin,
    stdout: io.stdout,
    tty: isTty(io.stdout),
  });
  const started: ChannelAdapter[] = [];
  let healthz: HealthzServer | null = null;
  try {
    if (missing.length > 0) {
      throw new ConfigError(
        `channels.${missing.join(', channels.')}: enabled but not available in this build. Fix: set enabled: false.`,
      );
    }
    if (adapters.length === 0) {
      throw new ConfigError(
        'channels: none is enabled. Fix: set channels.local.enabled (or telegram / slack) to true in the config.',
      );
    }
    for (const adapter of adapters) {
      await adapter.start(app.service);
      started.push(adapter);
    }
    const { port } = config.health;
    if (port !== undefined) healthz = await startHealthz(port, app.health, app.logger);
    await tellInterruptedTurns(app).catch((error: unknown) =>
      app.logger.warn({ err: error }, 'could not check the turn log for turns a crash cut short'),
    );
    app.logger.info(
      { channels: started.map((adapter) => adapter.name), provider: app.client.provider },
      'daemon serving',
    );
    const ends = started.map((adapter) => adapter.done);
    const allEnd = ends.every((done) => done !== undefined)
      ? Promise.all(ends).then(() => 'input ended')
      : new Promise<never>(() => undefined);
    const next = await Promise.race([until.stop, allEnd, until.reload()]);
    if (typeof next !== 'string') return next;
    app.logger.info({ reason: next }, 'daemon stopping');
    return null;
  } finally {
    await healthz?.close();
    for (const adapter of started.reverse()) {
      await adapter
        .stop()
        .catch((error: unknown) =>
          app.logger.warn({ err: error, channel: adapter.name }, 'channel stop failed'),
        );
    }
    await app.close();
  }
}
