// Deciding whether git can give a file back reads the repository and never writes it: a git
// the person runs meanwhile (`git add`) holds index.lock and writes its own index, which a
// decision writing a refreshed stat cache would overwrite with what it read before.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasStagedOnlyVersion, isTrackedClean } from '../../../executors/ops/git-clean.ts';
import { makeTempDir } from '../make-context.ts';

function git(dir: string, ...args: string[]): void {
  execFileSync('git', ['-C', dir, ...args], {
    stdio: 'ignore',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });
}

/** A repository whose index holds a stale stat for a.txt: its mtime moved, its bytes did not. */
async function repositoryWithStaleIndex(): Promise<string> {
  const dir = await makeTempDir('git-clean-ro-');
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'a.txt'), 'one\n');
  writeFileSync(join(dir, 'b.txt'), 'two\n');
  git(dir, 'add', '.');
  git(dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'first');
  const later = new Date(Date.now() + 60_000);
  utimesSync(join(dir, 'a.txt'), later, later);
  return dir;
}

describe('the git questions a decision asks leave the repository as it was', () => {
  it('isTrackedClean and hasStagedOnlyVersion write nothing to .git/index', async () => {
    const dir = await repositoryWithStaleIndex();
    const index = join(dir, '.git', 'index');
    const before = readFileSync(index);
    const mtime = statSync(index).mtimeMs;
    expect(await isTrackedClean(join(dir, 'a.txt'))).toBe(true);
    expect(await hasStagedOnlyVersion(dir)).toBe(false);
    expect(readFileSync(index).equals(before)).toBe(true);
    expect(statSync(index).mtimeMs).toBe(mtime);
  });

  it('still sees a modified file and a staged-only version', async () => {
    const dir = await repositoryWithStaleIndex();
    writeFileSync(join(dir, 'b.txt'), 'two, staged\n');
    git(dir, 'add', 'b.txt');
    writeFileSync(join(dir, 'b.txt'), 'two, staged, then edited\n');
    expect(await isTrackedClean(join(dir, 'b.txt'))).toBe(false);
    expect(await hasStagedOnlyVersion(dir)).toBe(true);
  });
});
