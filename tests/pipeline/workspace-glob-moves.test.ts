// `mv ~/Downloads/*.jpg ~/Pictures/photos/` runs without a card when nothing can be lost: the
// destination holds no name the pattern matches (so whatever it expands to when the call runs
// replaces nothing), and every name it matches now is one a plain move could take.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith, writableOf } from './pipeline-helpers.ts';

const home = process.env.HOME ?? '';
let base: string;
let pipeline: Pipeline;

beforeAll(async () => {
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
});
afterAll(() => pipeline.close());

beforeEach(async () => {
  base = await makeTempDir('sort-');
  await mkdir(join(base, 'Downloads'));
  await mkdir(join(base, 'photos'));
  for (const name of ['a.jpg', 'b.jpg', 'invoice.pdf', '.hidden.jpg'])
    await writeFile(join(base, 'Downloads', name), name);
});

function decide(command: string): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command, cwd: base }, 'sort my photos'));
}

describe('moving the files a glob names', () => {
  it('moves them into a directory that holds none of those names, in a real run', async () => {
    const outcome = await decide('mv Downloads/*.jpg photos/');
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'workspace: mv' });
    expect([...(writableOf(outcome) ?? [])].sort()).toEqual(
      [join(base, 'Downloads'), join(base, 'photos')].sort(),
    );
    expect(await pipeline.invoke(outcome, new AbortController().signal)).toMatchObject({
      ok: true,
      result: { exit_code: 0 },
    });
    expect((await readdir(join(base, 'photos'))).sort()).toEqual(['a.jpg', 'b.jpg']);
    expect((await readdir(join(base, 'Downloads'))).sort()).toEqual(['.hidden.jpg', 'invoice.pdf']);
  });

  it('asks when a name the glob could expand to is already in the destination', async () => {
    await writeFile(join(base, 'photos', 'a.jpg'), 'the only copy');
    expect((await decide('mv Downloads/*.jpg photos/')).decision).toBe('ask');
    expect((await decide('mv Downloads/?.jpg photos/')).decision).toBe('ask');
    // Even a name no source has now: a file that appears before the call runs would replace it.
    await writeFile(join(base, 'photos', 'z.pdf'), 'kept');
    expect((await decide('mv Downloads/*.pdf photos/')).decision).toBe('ask');
    expect((await decide('mv Downloads/invoice.* photos/')).decision).toBe('allow');
    expect(await readFile(join(base, 'photos', 'a.jpg'), 'utf8')).toBe('the only copy');
  });

  it('asks for patterns bash reads differently, hidden names, and places that change what runs', async () => {
    for (const command of [
      'mv Downloads/.*.jpg photos/',
      'mv Downloads/[ab].jpg photos/',
      'mv Downloads/*.jpg photos/album.jpg',
      'mv */a.jpg photos/',
      'mv -f Downloads/*.jpg photos/',
      `mv Downloads/*.jpg ${join(home, 'bin')}/`,
      `mv ${home}/* photos/`,
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });

  it('asks when a name the glob matches now may not be moved without a card', async () => {
    await mkdir(join(base, 'Downloads', 'bin'));
    await mkdir(join(base, 'shelf'));
    expect((await decide('mv Downloads/* shelf/')).decision).toBe('allow');
    const config = join(home, '.config', 'custode-glob-test');
    await mkdir(config, { recursive: true });
    await mkdir(join(base, 'empty'));
    expect((await decide(`mv ${join(home, '.config')}/custode-glob-* empty/`)).decision).toBe(
      'ask',
    );
  });
});
