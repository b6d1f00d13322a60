// A daemon started with a file open (a shell's `3>>log`, a service manager's socket) must not
// hand it to the command: a write through an inherited fd reaches a file no root makes writable.
// Real bwrap: a real parent process started with fd 200 open for writing on a planted file.
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '../make-context.ts';

const fixture = fileURLToPath(new URL('./fixtures/sandboxed-line.ts', import.meta.url));

describe('descriptors the sandbox inherits', () => {
  it('a command gets none of the daemon’s open files beyond its stdin, stdout and stderr', async () => {
    const dir = await makeTempDir('fds-');
    const kept = join(dir, 'kept.log');
    await writeFile(kept, 'original\n');
    const shown = execFileSync(
      'bash',
      [
        '-c',
        'exec 200>>"$1"; exec node --import tsx "$2" "echo written >&200; ls /proc/self/fd" "$3"',
        'bash',
        kept,
        fixture,
        dir,
      ],
      { encoding: 'utf8' },
    );
    // ls shows its own fd for the directory it lists, and nothing else above stderr.
    expect(shown.split('\n').filter((fd) => Number(fd) > 3)).toEqual([]);
    expect(await readFile(kept, 'utf8')).toBe('original\n');
  });
});
