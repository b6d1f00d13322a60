// Watching real processes from a test: poll /proc instead of timing anything.
import { readdir, readFile } from 'node:fs/promises';

/** Poll a condition (up to ~10 s): the test waits for a real process, it does not time it. */
export async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('condition never became true');
}

/** How many host processes have `tag` in their command line. */
export async function processesWith(tag: string): Promise<number> {
  let count = 0;
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.startsWith('sleep\0') && cmdline.includes(tag)) count += 1;
  }
  return count;
}
