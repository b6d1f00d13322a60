// Long-running commands (daemon, serve) stop on SIGINT or SIGTERM; the daemon reloads on SIGHUP.

/** Resolves with the signal's name on the first SIGINT or SIGTERM; dispose() stops listening. */
export function untilSignal(): { promise: Promise<string>; dispose(): void } {
  let dispose = (): void => undefined;
  const promise = new Promise<string>((resolve) => {
    const onSignal = (signal: string): void => resolve(signal);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    dispose = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    };
  });
  return { promise, dispose };
}

/**
 * SIGHUP while it listens: `next()` resolves on the next one (the daemon reloads its config).
 * Listening also keeps SIGHUP from killing the process, Node's default.
 */
export function hangups(): { next(): Promise<'SIGHUP'>; dispose(): void } {
  let wake = (): void => undefined;
  const onHangup = (): void => wake();
  process.on('SIGHUP', onHangup);
  return {
    next: () =>
      new Promise<'SIGHUP'>((resolve) => {
        wake = () => resolve('SIGHUP');
      }),
    dispose: () => void process.off('SIGHUP', onHangup),
  };
}
