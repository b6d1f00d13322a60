import { execa } from 'execa';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { processesWith, waitFor } from './processes.ts';

const fixture = fileURLToPath(new URL('./fixtures/sandboxed-sleep.ts', import.meta.url));

describe('bubblewrap sandbox lifetime', () => {
  it('dies with its parent even when the parent is SIGKILLed (no cleanup code runs)', async () => {
    const tag = `4343.${String(process.pid)}`;
    const parent = execa('node', ['--import', 'tsx', fixture, tag, process.env.HOME ?? '/'], {
      reject: false,
      stdin: 'ignore',
    });
    await waitFor(async () => (await processesWith(tag)) > 0);
    parent.kill('SIGKILL');
    const exited = await parent;
    expect(exited.signal).toBe('SIGKILL');
    await waitFor(async () => (await processesWith(tag)) === 0);
    expect(await processesWith(tag)).toBe(0);
  });
});
