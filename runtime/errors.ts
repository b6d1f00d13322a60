// One error class per place a failure can happen, split by who is at fault.
// Expected outcomes (a blocked call, bad args, an unknown tool) are data, not exceptions;
// these classes are for the boundaries: config, providers, executors.

export class CustodeError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The config file or environment is wrong; the message names the field and the fix. */
export class ConfigError extends CustodeError {
  constructor(
    message: string,
    readonly issues: readonly string[] = [],
  ) {
    super(message);
  }
}

/** The model API answered, with an error (4xx/5xx); `retryAfterMs` when it said how long to wait. */
export class ProviderError extends CustodeError {
  readonly retryAfterMs: number | undefined;
  constructor(
    message: string,
    readonly status: number | undefined,
    options?: { cause?: unknown; retryAfterMs?: number | undefined },
  ) {
    super(message, options);
    this.retryAfterMs = options?.retryAfterMs;
  }
}

/** The model API never answered (refused, reset, DNS, timeout). */
export class NetworkError extends CustodeError {}

/** Arguments did not match the executor's schema; carries every issue with its field path. */
export class InvalidArguments extends CustodeError {
  constructor(
    message: string,
    readonly issues: readonly { path: string; message: string }[] = [],
  ) {
    super(message);
  }
}

export class PathOutsideBoundary extends CustodeError {}
export class NotFound extends CustodeError {}
export class PermissionDenied extends CustodeError {}
export class CommandNotAllowed extends CustodeError {}
export class SubcommandNotAllowed extends CustodeError {}
export class DomainNotAllowed extends CustodeError {}
export class OutputSizeLimitExceeded extends CustodeError {}
export class ExecTimeoutCeilingExceeded extends CustodeError {}
export class ExecutorTimeout extends CustodeError {}
/** The sandbox cannot run here (bubblewrap missing); the message says how to install it. */
export class SandboxUnavailable extends CustodeError {}

/** Another process owns what this one needs (a second daemon on one state dir). */
export class StateDirBusy extends CustodeError {}

/** The state or data dir cannot be written: serving would fail every turn. */
export class StateNotWritable extends CustodeError {}
