// A git directory is one by what it holds, not by its name: a bare repository (~/repos/app.git,
// the remote a user pushes to) and a work tree's separate git dir (`git init --separate-git-dir`)
// run their hooks and read their config on the host, outside any sandbox, like any `.git`.
// Nothing in them is written without a card, by the file tools or the shell; a real push proves
// what a planted hook would do.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';
import { git } from './planted-files.ts';

const intent = 'help me with my project';
let root: string;
let bare: string;
let separate: string;
let pipeline: Pipeline;

beforeEach(async () => {
  root = await makeTempDir('gitdirs-');
  bare = join(root, 'repos', 'app.git');
  separate = join(root, 'gitdirs', 'work');
  git('init', '-q', '--bare', bare);
  await mkdir(join(root, 'work'));
  await mkdir(join(root, 'gitdirs'));
  git('init', '-q', `--separate-git-dir=${separate}`, join(root, 'work'));
  const state = await makeTempDir('state-');
  pipeline = await pipelineWith(
    { roots: { write: ['~'] } },
    { ...process.env, XDG_STATE_HOME: state },
  );
});
afterEach(() => pipeline.close());

describe('a git directory not named .git is written only with a card', () => {
  it('the file tools ask for a hook, a config or an attributes file in it', async () => {
    for (const dir of [bare, separate]) {
      for (const [executor, args] of [
        ['fs_write', { path: join(dir, 'hooks', 'pre-receive'), content: '#!/bin/sh\nexit 0\n' }],
        ['fs_write', { path: join(dir, 'hooks', 'pre-commit'), content: '#!/bin/sh\nexit 0\n' }],
        ['fs_write', { path: join(dir, 'config.worktree'), content: '[core]\n' }],
        ['fs_write', { path: join(dir, 'info', 'attributes'), content: '* diff=x\n' }],
        ['fs_mkdir', { path: join(dir, 'hooks', 'pre-push.d') }],
      ] as const) {
        const outcome = await pipeline.evaluate(call(executor, args, intent));
        expect(outcome.decision, `${executor} ${args.path}`).not.toBe('allow');
      }
    }
  });

  it('the shell asks for a write or a chmod in it', async () => {
    for (const command of [
      `echo 'exit 0' > ${join(bare, 'hooks', 'update')}`,
      `touch ${join(bare, 'hooks', 'post-receive')}`,
      `chmod +x ${join(bare, 'hooks', 'pre-receive.sample')}`,
      `mkdir ${join(separate, 'hooks', 'x')}`,
    ]) {
      const outcome = await pipeline.evaluate(call('shell_exec', { command, cwd: root }, intent));
      expect(outcome.decision, command).not.toBe('allow');
    }
  });

  it('a push to the bare repository runs no hook planted without a card', async () => {
    const sig = new AbortController().signal;
    const marker = join(root, 'HOOK-RAN');
    for (const [executor, args] of [
      [
        'fs_write',
        { path: join(bare, 'hooks', 'pre-receive'), content: `#!/bin/sh\ntouch ${marker}\n` },
      ],
      ['shell_exec', { command: `chmod +x ${join(bare, 'hooks', 'pre-receive')}`, cwd: root }],
    ] as const) {
      const outcome = await pipeline.evaluate(call(executor, args, intent));
      if (outcome.decision === 'allow') await pipeline.invoke(outcome, sig);
    }
    const work = join(root, 'work');
    await writeFile(join(work, 'a.txt'), 'a\n');
    git('-C', work, 'add', 'a.txt');
    git('-C', work, 'commit', '-qm', 'a');
    git('-C', work, 'push', '-q', bare, 'HEAD:main');
    expect(await readdir(root)).not.toContain('HOOK-RAN');
  });

  it('a folder that only looks like part of a repository (hooks/, info/) is still written without a card', async () => {
    const outcome = await pipeline.evaluate(
      call(
        'fs_write',
        { path: join(root, 'site', 'hooks', 'use-auth.ts'), content: 'x', create_dirs: true },
        intent,
      ),
    );
    expect(outcome).toMatchObject({ decision: 'allow' });
  });
});
