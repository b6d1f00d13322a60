// Closing the pre-start pool lets Custode exit even when a process of a sandbox escaped the kill.
// Killed while it comes up, bwrap's outer process can die before the inner one has asked to die
// with its parent; the inner one (another session, so not in the killed group) then holds the
// other ends of the sandbox's pipes. Here a real bash stands in for that inner process: `setsid`
// puts it outside the group the pool kills, and it waits on fd 3 as a pre-started sandbox does.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPrestartPool } from '../../../executors/sandbox/prestart-pool.ts';

/** Processes whose command line holds `marker`, anywhere on the machine. */
function processesWith(marker: string): string[] {
  const listed = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return listed.split('\n').filter((line) => line.includes(marker) && !line.includes('ps -eo'));
}

async function gone(marker: string): Promise<string[]> {
  for (let tries = 0; tries < 60 && processesWith(marker).length > 0; tries += 1)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return processesWith(marker);
}

describe('closing the pre-start pool', () => {
  it('leaves no process of a sandbox waiting on its pipes, even one outside the killed group', async () => {
    const marker = `escaped-${randomUUID()}`;
    const pool = createPrestartPool({ prestart: true });
    const started = pool.start({
      slot: 'escaped',
      file: 'bash',
      // The escaped one reads fd 3 until our end closes, as the sandbox's bash does.
      argv: ['-c', `setsid bash -c 'printf . >&3; cat <&3 >/dev/null' ${marker} & wait`],
      cwd: '/',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    await expect.poll(() => processesWith(marker).length).toBeGreaterThan(0);
    pool.close();
    await started.ended;
    expect(await gone(marker)).toEqual([]);
    expect(started.subprocess.stdio.every((stream) => stream?.destroyed ?? true)).toBe(true);
  });
});
