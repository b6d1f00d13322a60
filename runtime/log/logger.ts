// The operator's log (pino, to stderr). Never the audit log: that one is data.
import { createRequire } from 'node:module';
import type { Logger } from 'pino';

export type { Logger };

const require = createRequire(import.meta.url);

/**
 * A logger at CUSTODE_LOG_LEVEL (default "info"), writing JSON lines to stderr. pino loads on the
 * first use: most runs of `custode hook` and `check` log nothing, and loading it is a good part
 * of their start.
 */
export function createLogger(env: NodeJS.ProcessEnv = process.env): Logger {
  let logger: Logger | undefined;
  const real = (): Logger => {
    if (logger === undefined) {
      const { pino } = require('pino') as typeof import('pino');
      logger = pino({ level: env.CUSTODE_LOG_LEVEL ?? 'info', base: null }, pino.destination(2));
    }
    return logger;
  };
  return new Proxy({} as Logger, {
    get(_, key) {
      const target = real();
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
    set: (_, key, value) => Reflect.set(real(), key, value),
  });
}
