// A file tool allowed without a card writes where its decision looked, not where a link swapped
// in since leads: a folder replaced by a link to ~/bin (whose files run as commands) between the
// decision and the run gets nothing. The decision resolved the folder; the run does not resolve
// it again.
import { mkdir, readdir, rename, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const intent = 'file my notes';
let pipeline: Pipeline;
let notes: string;
let bin: string;

beforeAll(async () => {
  notes = await makeTempDir('notes-');
  bin = join(process.env.HOME ?? '/nonexistent', 'bin');
  await mkdir(bin, { recursive: true });
  pipeline = await pipelineWith({ roots: { write: ['~'] } });
});
afterAll(() => pipeline.close());

describe('a write without a card lands where it was decided', () => {
  for (const [executor, args] of [
    ['fs_write', (dir: string) => ({ path: join(dir, 'ls'), content: '#!/bin/sh\n' })],
    ['fs_mkdir', (dir: string) => ({ path: join(dir, 'ls') })],
  ] as const) {
    it(`${executor} into a folder swapped for a link to ~/bin writes nothing there`, async () => {
      const folder = await makeTempDir(`${executor}-`);
      const outcome = await pipeline.evaluate(call(executor, args(folder), intent));
      expect(outcome.decision, outcome.reason).toBe('allow');
      await rename(folder, `${folder}.moved`);
      await symlink(bin, folder);
      const ran = await pipeline.invoke(outcome, new AbortController().signal);
      expect(ran.ok).toBe(false);
      expect(await readdir(bin)).toEqual([]);
    });
  }

  it('a write into the folder as decided still runs', async () => {
    const outcome = await pipeline.evaluate(
      call('fs_write', { path: join(notes, 'groceries.md'), content: '- milk\n' }, intent),
    );
    expect(outcome.decision).toBe('allow');
    expect(await pipeline.invoke(outcome, new AbortController().signal)).toMatchObject({
      ok: true,
    });
  });
});
