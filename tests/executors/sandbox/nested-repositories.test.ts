// The walk that finds repositories nested in a work tree: what it finds, skips and refuses.
import { execFileSync } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFsOps } from '../../../executors/ops/node-fs.ts';
import { nestedRepositories } from '../../../executors/sandbox/nested-repositories.ts';
import { makeTempDir } from '../make-context.ts';

describe('nestedRepositories', () => {
  it('finds nested .git entries, not the tree’s own, not in node_modules, not through links', async () => {
    const tree = await makeTempDir('tree-');
    execFileSync('git', ['init', '-q', tree]);
    for (const dir of ['vendor/a', 'deep/x/y/b', 'node_modules/c', 'outside']) {
      await mkdir(join(tree, dir), { recursive: true });
      execFileSync('git', ['init', '-q', join(tree, dir)]);
    }
    await symlink(join(tree, 'outside'), join(tree, 'link'));
    const found = await nestedRepositories(tree, createNodeFsOps());
    expect(found.sort()).toEqual(
      ['deep/x/y/b/.git', 'outside/.git', 'vendor/a/.git'].map((p) => join(tree, p)),
    );
  });

  it('refuses a tree larger than its limit, naming the way to ask', async () => {
    const tree = await makeTempDir('big-');
    for (let i = 0; i < 6; i += 1) await mkdir(join(tree, `d${String(i)}`));
    await expect(nestedRepositories(tree, createNodeFsOps(), 5)).rejects.toThrow(
      /request_approval/,
    );
  });
});
