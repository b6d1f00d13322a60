// A loop counter is unrolled only when bash counts as the decision does. bash reads a number
// with a leading zero as octal: `n=08` makes `((n++))` fail every time, so every iteration of
// `mv "$f" "x-$n.jpg"` writes the one name x-08.jpg and each move replaces the file moved before
// it; `n=010` counts 8, 9, 10, names nobody judged. Real files, real sandbox.
import { spawnSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../executors/make-context.ts';
import { plant, shellCallsWithFreshPipeline } from './planted-files.ts';

const sandboxWorks =
  spawnSync('bwrap', ['--unshare-user', '--ro-bind', '/', '/', 'true']).status === 0;
let photos: string;

beforeEach(async () => {
  photos = await makeTempDir('photos-');
  for (const name of ['a', 'b', 'c']) await plant(join(photos, `${name}.jpg`), `PHOTO-${name}\n`);
});

const { pipeline, decide } = shellCallsWithFreshPipeline(() => photos, 'rename my photos');

describe('a numbered rename loop never puts two files on one name', () => {
  it('asks when the counter starts with a zero bash reads as octal', async () => {
    for (const start of ['08', '09', '010', '00'])
      expect(
        (await decide(`n=${start}; for f in *.jpg; do mv "$f" "x-$n.jpg"; ((n++)); done`)).decision,
        start,
      ).toBe('ask');
  });

  it.skipIf(!sandboxWorks)(
    'runs a counter from a plain number without a card, and keeps every photo',
    async () => {
      const outcome = await decide('n=8; for f in *.jpg; do mv "$f" "x-$n.jpg"; ((n++)); done');
      expect(outcome).toMatchObject({ decision: 'allow', grant: { by: 'tier' } });
      await pipeline().invoke(outcome, new AbortController().signal);
      expect((await readdir(photos)).sort()).toEqual(['x-10.jpg', 'x-8.jpg', 'x-9.jpg']);
      const kept = await Promise.all(
        ['x-8', 'x-9', 'x-10'].map((n) => readFile(join(photos, `${n}.jpg`), 'utf8')),
      );
      expect(kept.sort()).toEqual(['PHOTO-a\n', 'PHOTO-b\n', 'PHOTO-c\n']);
    },
  );
});
