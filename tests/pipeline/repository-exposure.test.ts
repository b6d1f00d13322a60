// What a git command could print from a repository, judged over real repositories read by the
// real reader: protected names in any placement (work tree, a tail in the home, at the root),
// history and index included, a home that is itself protected, and outside any repository.
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { protectionOf } from '../../constitution/protected.ts';
import { createRepositoryReader } from '../../executors/ops/repository-reader.ts';
import { repositoryExposure } from '../../runtime/pipeline/repository-exposure.ts';
import { makeTempDir } from '../executors/make-context.ts';

const reader = createRepositoryReader(process.env);
const byText = (path: string) => protectionOf(path, []);

async function repository(files: Record<string, string>): Promise<string> {
  const dir = await makeTempDir('repo-');
  execFileSync('git', ['init', '-q', dir]);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, dirname(path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  execFileSync('git', ['-C', dir, 'add', '.']);
  execFileSync('git', [
    '-C',
    dir,
    '-c',
    'user.name=a',
    '-c',
    'user.email=a@a',
    'commit',
    '-qm',
    'x',
    '--allow-empty',
  ]);
  return dir;
}

describe('what a repository holds, placed where it would be protected', () => {
  it.each([
    ['a stow package', { 'aws/.aws/credentials': 'x' }],
    ['a home mirror', { '.netrc': 'x' }],
    ['an /etc backup', { 'backup/etc/shadow': 'x' }],
    ['a stow package of ~/.config', { 'gh/.config/gh/hosts.yml': 'x' }],
    ['a chezmoi source directory', { 'private_dot_config/gh/hosts.yml': 'x' }],
    ['a chezmoi template', { 'dot_netrc.tmpl': 'x' }],
  ])('%s is exposed', async (_name, files) => {
    const dir = await repository(files);
    expect(repositoryExposure(dir, 'objects', '/home/ada', reader, byText)).not.toBeNull();
  });

  it('an ordinary project is clear, and stays clear when the home is itself protected (/root)', async () => {
    const dir = await repository({ 'src/app.js': 'x', 'README.md': 'x', 'root/notes.md': 'x' });
    expect(repositoryExposure(dir, 'objects', '/home/ada', reader, byText)).toMatchObject({
      name: expect.stringContaining('/root'),
    });
    const plain = await repository({ 'src/app.js': 'x', 'README.md': 'x' });
    expect(repositoryExposure(plain, 'objects', '/home/ada', reader, byText)).toBeNull();
    expect(repositoryExposure(plain, 'objects', '/root', reader, byText)).toBeNull();
  });

  it('a protected file only in history, or only staged, is exposed', async () => {
    const dir = await repository({ '.aws/credentials': 'x', 'a.txt': 'x' });
    execFileSync('git', ['-C', dir, 'rm', '-rq', '--cached', '.aws']);
    execFileSync('git', [
      '-C',
      dir,
      '-c',
      'user.name=a',
      '-c',
      'user.email=a@a',
      'commit',
      '-qm',
      'y',
    ]);
    expect(repositoryExposure(dir, 'objects', '/home/ada', reader, byText)).not.toBeNull();
    const staged = await repository({ 'a.txt': 'x' });
    await writeFile(join(staged, '.netrc'), 'x');
    execFileSync('git', ['-C', staged, 'add', '.netrc']);
    expect(repositoryExposure(staged, 'objects', '/home/ada', reader, byText)).not.toBeNull();
  });

  it('outside any repository nothing is exposed', async () => {
    const dir = await makeTempDir('plain-');
    expect(repositoryExposure(dir, 'objects', '/home/ada', reader, byText)).toBeNull();
  });
});
