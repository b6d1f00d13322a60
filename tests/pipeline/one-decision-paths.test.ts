// A decision resolves each path once (runtime/pipeline/one-decision.ts) and remembers nothing
// for the next: a link changed between two decisions leads the second where it leads now.
// Real links in the test's HOME, through the real pipeline.
import { rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { resolvingOnce } from '../../runtime/pipeline/one-decision.ts';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';
import { plant } from './planted-files.ts';

const home = process.env.HOME ?? '';
const notes = join(home, 'notes');
const key = join(home, '.ssh', 'id_ed25519');
let pipeline: Pipeline;

async function relink(link: string, target: string): Promise<void> {
  await rm(link, { force: true });
  await symlink(target, link);
}

beforeEach(async () => {
  for (const name of ['.ssh', 'notes'])
    await rm(join(home, name), { recursive: true, force: true });
  await plant(key, 'FAKE-SSH-KEY\n');
  await plant(join(notes, 'todo.md'), '# todo\n');
  await plant(join(notes, 'ideas', 'a.md'), '# a\n');
  pipeline = await pipelineWith(
    { roots: { write: ['~'] } },
    { ...process.env, XDG_STATE_HOME: await makeTempDir('state-') },
  );
});

describe('a link changed between two decisions', () => {
  it('a read through a file link that now leads to a key is denied', async () => {
    const link = join(notes, 'current');
    await relink(link, join(notes, 'todo.md'));
    const before = await pipeline.evaluate(call('fs_read', { path: '~/notes/current' }));
    expect(before.decision).not.toBe('deny');
    await relink(link, key);
    const after = await pipeline.evaluate(call('fs_read', { path: '~/notes/current' }));
    expect(after.decision).toBe('deny');
    expect(after.stage).toBe('guard');
  });

  it('a path below a directory link that now leads to ~/.ssh is denied', async () => {
    const link = join(notes, 'dir');
    await relink(link, join(notes, 'ideas'));
    const args = { path: '~/notes/dir/id_ed25519' };
    const before = await pipeline.evaluate(call('fs_read', args));
    expect(before.stage).not.toBe('guard');
    await relink(link, join(home, '.ssh'));
    const after = await pipeline.evaluate(call('fs_read', args));
    expect(after).toMatchObject({ decision: 'deny', stage: 'guard' });
  });

  it('a shell read through a link that now leads to a key is denied', async () => {
    const link = join(notes, 'current');
    await relink(link, join(notes, 'todo.md'));
    const line = { command: 'cat notes/current' };
    const before = await pipeline.evaluate(call('shell_exec', line));
    expect(before.decision).toBe('allow');
    await relink(link, key);
    const after = await pipeline.evaluate(call('shell_exec', line));
    expect(after.decision).toBe('deny');
  });

  it('a write through a link that now leads to a key does not run without a card', async () => {
    const link = join(notes, 'current');
    await relink(link, join(notes, 'todo.md'));
    const args = { path: '~/notes/current', content: 'x\n' };
    await pipeline.evaluate(call('fs_write', args));
    await relink(link, key);
    const after = await pipeline.evaluate(call('fs_write', args));
    expect(after.decision).toBe('deny');
  });
});

describe('what one decision remembers', () => {
  it('each evaluation resolves a path once, and a second one resolves it again', () => {
    const asked: string[] = [];
    const realPath = (path: string): string | null => {
      asked.push(path);
      return path === '/missing' ? null : `/real${path}`;
    };
    const first = resolvingOnce(realPath);
    const second = resolvingOnce(realPath);
    for (const path of ['/a', '/a', '/missing', '/missing']) first(path);
    expect(first('/a')).toBe('/real/a');
    expect(first('/missing')).toBeNull();
    expect(asked).toEqual(['/a', '/missing']);
    expect(second('/a')).toBe('/real/a');
    expect(asked).toEqual(['/a', '/missing', '/a']);
  });
});
