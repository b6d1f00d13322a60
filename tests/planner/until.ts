// Waits for a condition in tests that drive concurrent turns (no fixed sleeps).
import { setTimeout as sleep } from 'node:timers/promises';

/** Resolves once `check` is true; fails after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}
