// Long-running commands (daemon, serve) stop on SIGINT or SIGTERM.

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
