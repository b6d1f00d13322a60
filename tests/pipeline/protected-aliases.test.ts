// A protected place under another name: a hard link to a key, the file a store's name links to
// (a stow or dotfiles layout: ~/.aws/credentials -> ~/dotfiles/aws_credentials), and the file a
// dotfile or a PATH directory links to (~/.bashrc -> ~/dotfiles/bashrc, ~/bin -> ~/dotfiles/bin).
// Through the real pipeline, real files, real git and, where a call is allowed, a real run: no
// planted secret is printed and no such file changes without a card.
import { execFileSync } from 'node:child_process';
import { link, mkdir, readFile, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';
import { git, plant } from './planted-files.ts';

const home = process.env.HOME ?? '';
const intent = 'help me with my project';
const dotfiles = join(home, 'dotfiles');
const notes = join(home, 'notes');
let pipeline: Pipeline;

beforeEach(async () => {
  for (const name of [
    '.ssh',
    '.aws',
    'dotfiles',
    'notes',
    'bin',
    '.bashrc',
    '.gitconfig',
    '.netrc',
    '.password-store',
  ])
    await rm(join(home, name), { recursive: true, force: true });
  await plant(join(home, '.ssh', 'id_ed25519'), 'FAKE-SSH-KEY\n');
  await plant(join(home, '.netrc'), 'machine x password FAKE-NETRC\n');
  await plant(join(notes, 'todo.md'), '# todo\n');
  await link(join(home, '.ssh', 'id_ed25519'), join(notes, 'key-copy'));
  await link(join(home, '.netrc'), join(notes, 'netrc-copy'));
  // Deep inside a store, below where the look for links that leave a store stops.
  const deep = join(home, '.password-store', 'web', 'shops', 'eu', 'de', 'old', 'site.gpg');
  await plant(deep, 'FAKE-DEEP-PASS\n');
  await link(deep, join(notes, 'deep-copy'));
  // A dotfiles repository, stowed: the names in ~ are links into it.
  await plant(join(dotfiles, 'bashrc'), 'alias ll=ls\n');
  await plant(join(dotfiles, 'gitconfig'), '[user]\n\tname = a\n');
  await plant(join(dotfiles, 'ssh_config'), 'Host *\n  IdentityFile FAKE-SSH-CONFIG\n');
  await plant(join(dotfiles, 'bin', 'tool'), '#!/bin/sh\necho tool\n');
  execFileSync('git', ['init', '-q', dotfiles]);
  git('-C', dotfiles, 'add', '-A');
  git('-C', dotfiles, 'commit', '-qm', 'dotfiles');
  await plant(join(dotfiles, 'aws_credentials'), 'aws_secret_access_key = FAKE-AWS-VIA-LINK\n');
  await mkdir(join(home, '.aws'), { recursive: true });
  await symlink(join(dotfiles, 'aws_credentials'), join(home, '.aws', 'credentials'));
  await symlink('../dotfiles/ssh_config', join(home, '.ssh', 'config'));
  await symlink('dotfiles/bashrc', join(home, '.bashrc'));
  await symlink('dotfiles/gitconfig', join(home, '.gitconfig'));
  await symlink('dotfiles/bin', join(home, 'bin'));
  const state = await makeTempDir('state-');
  pipeline = await pipelineWith(
    { roots: { write: ['~'] } },
    { ...process.env, XDG_STATE_HOME: state },
  );
});
afterEach(() => pipeline.close());

const secrets = [
  'FAKE-SSH-KEY',
  'FAKE-NETRC',
  'FAKE-SSH-CONFIG',
  'FAKE-AWS-VIA-LINK',
  'FAKE-DEEP-PASS',
];

function decide(executor: string, args: unknown): Promise<PipelineOutcome> {
  return pipeline.evaluate(call(executor, args, intent));
}

/** Decides the call and, where it is allowed, runs it; returns what it printed. */
async function decideAndRun(executor: string, args: unknown): Promise<string> {
  const outcome = await decide(executor, args);
  if (outcome.decision !== 'allow') return outcome.decision;
  return JSON.stringify(await pipeline.invoke(outcome, new AbortController().signal));
}

function expectNoSecret(text: string, what: string): void {
  for (const secret of secrets) expect(text, what).not.toContain(secret);
}

describe('a protected file under another name is never read without a card', () => {
  it('a hard link to a key or to ~/.netrc, read or searched by the file tools', async () => {
    for (const [executor, args] of [
      ['fs_read', { path: join(notes, 'key-copy') }],
      ['fs_read', { path: join(notes, 'netrc-copy') }],
      ['fs_read', { path: join(notes, 'deep-copy') }],
      ['fs_grep', { path: join(notes, 'netrc-copy'), pattern: 'password' }],
      ['fs_grep', { path: notes, pattern: 'FAKE' }],
      ['fs_grep', { path: home, pattern: 'FAKE' }],
    ] as const)
      expectNoSecret(await decideAndRun(executor, args), `${executor} ${JSON.stringify(args)}`);
  });

  it('the file a store links to (~/.aws/credentials, ~/.ssh/config), read or searched where it lives', async () => {
    for (const [executor, args] of [
      ['fs_read', { path: join(dotfiles, 'aws_credentials') }],
      ['fs_read', { path: join(dotfiles, 'ssh_config') }],
      ['fs_grep', { path: dotfiles, pattern: 'FAKE' }],
      ['fs_grep', { path: home, pattern: 'FAKE' }],
    ] as const)
      expectNoSecret(await decideAndRun(executor, args), `${executor} ${JSON.stringify(args)}`);
  });

  it('a shell read of a hard link or of the file a store links to asks or is refused', async () => {
    for (const command of [
      `cat ${join(notes, 'netrc-copy')}`,
      `cat ${join(notes, 'deep-copy')}`,
      `cat ${join(dotfiles, 'aws_credentials')}`,
      `grep -r FAKE ${dotfiles}`,
      `grep -r FAKE ${notes}`,
    ]) {
      const outcome = await decide('shell_exec', { command, cwd: home });
      expect(outcome.decision, command).not.toBe('allow');
    }
  });

  it('an ordinary file in the same folders is still read without a card', async () => {
    expect(await decideAndRun('fs_read', { path: join(notes, 'todo.md') })).toContain('# todo');
    expect(await decideAndRun('fs_read', { path: join(dotfiles, 'bashrc') })).toContain('alias');
  });
});

describe('a file a dotfile or a PATH directory links to is never written without a card', () => {
  it('the file tools: ~/.bashrc itself, its target, ~/.gitconfig, a program in the linked ~/bin', async () => {
    for (const [executor, args] of [
      ['fs_write', { path: join(home, '.bashrc'), content: 'echo PWNED\n' }],
      ['fs_write', { path: join(dotfiles, 'bashrc'), content: 'echo PWNED\n' }],
      ['fs_edit', { path: join(dotfiles, 'bashrc'), old_text: 'alias', new_text: 'PWNED' }],
      ['fs_write', { path: join(dotfiles, 'gitconfig'), content: '[core]\n\tpager = PWNED\n' }],
      ['fs_write', { path: join(dotfiles, 'bin', 'tool'), content: '#!/bin/sh\necho PWNED\n' }],
      ['fs_write', { path: join(dotfiles, 'bin', 'newtool'), content: '#!/bin/sh\necho PWNED\n' }],
      ['fs_write', { path: join(home, 'bin', 'newtool'), content: '#!/bin/sh\necho PWNED\n' }],
      ['fs_mkdir', { path: join(home, 'bin', 'sub') }],
      [
        'fs_multi_edit',
        { path: join(home, '.bashrc'), edits: [{ old_text: 'alias', new_text: 'PWNED' }] },
      ],
    ] as const) {
      const outcome = await decide(executor, args);
      expect(outcome.decision, `${executor} ${args.path}`).not.toBe('allow');
    }
    expect(await readFile(join(dotfiles, 'bashrc'), 'utf8')).toBe('alias ll=ls\n');
  });

  it('a link in a writable folder that leads to ~/.bashrc is not a way in', async () => {
    await symlink('../.bashrc', join(notes, 'rc-link'));
    const outcome = await decide('fs_write', { path: join(notes, 'rc-link'), content: 'x' });
    expect(outcome.decision).not.toBe('allow');
  });

  it('a tracked, unmodified file of a repository no dotfile links into is still written without a card', async () => {
    await plant(join(dotfiles, 'README.md'), '# my dotfiles\n');
    git('-C', dotfiles, 'add', 'README.md');
    git('-C', dotfiles, 'commit', '-qm', 'readme');
    expect(
      await decide('fs_write', { path: join(dotfiles, 'README.md'), content: '# mine\n' }),
    ).toMatchObject({ decision: 'allow', reason: 'workspace: a file git can give back' });
  });
});
