// fs_read reads files: a FIFO, a device that never ends or a terminal is refused at once instead
// of hanging the call or reading what the person types. Real files, real FIFO, real devices.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fsRead } from '../../executors/fs-read.ts';
import { makeContext, makeTempDir } from './make-context.ts';

describe('fs_read of what is not a file', () => {
  it('refuses a FIFO, /dev/zero and /dev/stdin quickly, and still reads /proc/self/status', async () => {
    const dir = await makeTempDir('special-');
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const ctx = await makeContext();
    for (const path of [fifo, '/dev/zero', '/dev/stdin'])
      await expect(fsRead.run({ path }, ctx), path).rejects.toThrow(/not a regular file|no such/);
    const status = (await fsRead.run({ path: '/proc/self/status' }, ctx)) as { content: string };
    expect(status.content).toContain('Pid:');
  }, 10_000);
});
