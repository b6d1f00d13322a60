// Custode cuts credentials out of what a call without a card prints (executors/shown-text.ts),
// so its own `git log -p` of a repository that once committed a key shows none. The agent behind
// the hook runs git itself and sees the whole history: a git line that prints file contents from
// a repository whose objects hold a credential asks there; one whose history holds none, and one
// that prints no file contents (`git log --oneline`), still gets no decision.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeCodePayload, runCli, type CliRun } from './cli-helpers.ts';

const home = process.env.HOME ?? '';
const leaky = join(home, 'projects', 'leaky');
const clean = join(home, 'projects', 'clean');

function payload(command: string, cwd: string): string {
  return claudeCodePayload('Bash', { command }, cwd);
}

function decisionOf(run: CliRun): string | undefined {
  expect(run.code, run.stderr).toBe(0);
  const body = JSON.parse(run.stdout) as { hookSpecificOutput?: { permissionDecision?: string } };
  return body.hookSpecificOutput?.permissionDecision;
}

function repository(dir: string, files: Record<string, string>, later: Record<string, string>) {
  mkdirSync(dir, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', dir, '-c', 'user.email=a@b', '-c', 'user.name=a', ...args]);
  git('init', '-q');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  git('add', '-A');
  git('commit', '-qm', 'first');
  for (const [name, text] of Object.entries(later)) writeFileSync(join(dir, name), text);
  git('commit', '-qam', 'second');
}

beforeAll(() => {
  repository(
    leaky,
    { 'settings.py': 'SECRET_KEY = "dj4ngo-PLANTED-k3y-9x8y7z6w5v"\n', 'app.py': 'print(1)\n' },
    { 'settings.py': 'SECRET_KEY = os.environ["SECRET_KEY"]\n' },
  );
  repository(clean, { 'app.py': 'print(1)\n' }, { 'app.py': 'print(2)\n' });
});

describe('custode hook claude-code, git printing history', { timeout: 60_000 }, () => {
  it.each([
    'git log -p',
    'git show HEAD~1',
    'git show HEAD~1:settings.py',
    'git diff HEAD~1',
    'git grep SECRET HEAD~1',
    'git log -p -S SECRET_KEY',
    'git blame HEAD~1 -- settings.py',
  ])(
    "%s asks where the history holds a credential (only Custode's own run cuts it)",
    async (command) => {
      expect(decisionOf(await runCli(['hook', 'claude-code'], payload(command, leaky)))).toBe(
        'ask',
      );
    },
  );

  it.each(['git log -p', 'git show HEAD~1', 'git diff HEAD~1'])(
    '%s gets no decision where the history holds none',
    async (command) => {
      const run = await runCli(['hook', 'claude-code'], payload(command, clean));
      expect(decisionOf(run)).toBeUndefined();
    },
  );

  it('git log --oneline, which prints no file, gets no decision even there', async () => {
    const run = await runCli(['hook', 'claude-code'], payload('git log --oneline', leaky));
    expect(decisionOf(run)).toBeUndefined();
  });

  it.each([
    'git -C ~/projects/leaky show HEAD~1',
    'cd projects/leaky && git show HEAD~1:settings.py',
  ])('%s from the home asks too (git runs where -C or cd takes it)', async (command) => {
    expect(decisionOf(await runCli(['hook', 'claude-code'], payload(command, home)))).toBe('ask');
  });

  it.each([
    'git --config-env color.ui=HOME log -p',
    'git --config-env=color.ui=HOME show HEAD~1',
    'git --git-dir projects/leaky/.git log -p',
    'git --git-dir=projects/leaky/.git show HEAD~1',
    'GIT_DIR=projects/leaky/.git git log -p',
    'git --some-later-option value log -p',
  ])(
    '%s asks: a global option that takes a value, or moves git to the repository, is read as git reads it',
    async (command) => {
      expect(decisionOf(await runCli(['hook', 'claude-code'], payload(command, home)))).toBe('ask');
    },
  );

  it('git log asks where a commit message holds a token, and not in a clean repository', async () => {
    const tokened = join(home, 'projects', 'tokened');
    repository(tokened, { 'app.py': 'print(1)\n' }, { 'app.py': 'print(2)\n' });
    execFileSync('git', ['-C', tokened, 'commit', '--allow-empty', '-qm', `deploy ${TOKEN}`], {
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'a',
        GIT_AUTHOR_EMAIL: 'a@a',
        GIT_COMMITTER_NAME: 'a',
        GIT_COMMITTER_EMAIL: 'a@a',
      },
    });
    for (const command of ['git log', 'git log --oneline -3'])
      expect(
        decisionOf(await runCli(['hook', 'claude-code'], payload(command, tokened))),
        command,
      ).toBe('ask');
    expect(
      decisionOf(await runCli(['hook', 'claude-code'], payload('git log', clean))),
    ).toBeUndefined();
  });
});

const TOKEN = 'ghp_H00kM3ssageT0kenAbCdEfGhIjKlMnOpQrSt';
