// The operator's log (pino, to stderr). Never the audit log: that one is data.
import { pino, type Logger } from 'pino';

export type { Logger };

/** A logger at CUSTODE_LOG_LEVEL (default "info"), writing JSON lines to stderr. */
export function createLogger(env: NodeJS.ProcessEnv = process.env): Logger {
  return pino({ level: env.CUSTODE_LOG_LEVEL ?? 'info', base: null }, pino.destination(2));
}
