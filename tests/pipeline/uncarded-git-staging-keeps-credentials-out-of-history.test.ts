// `git add -A`, `git add .` and `git commit -a` take files from the work tree into the index and
// then into history, which every clone and push carries. A `.env` the project forgot to ignore,
// or a token pasted into a tracked file, goes in with them. So a line that would stage or commit
// a file the credential check flags asks, and its card says why; staging ordinary files, or a
// project whose `.env` is ignored, runs as before. Real repositories, real pipeline, real sandbox.
import { spawnSync } from 'node:child_process';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../executors/make-context.ts';
import { git, plant, shellCallsWithFreshPipeline } from './planted-files.ts';

const sandboxWorks =
  spawnSync('bwrap', ['--unshare-user', '--ro-bind', '/', '/', 'true']).status === 0;
const intent = 'commit my work';
const TOKEN = 'ghp_St4gedT0kenAbCdEfGhIjKlMnOpQrStUv1234';
let repo: string;

beforeEach(async () => {
  repo = `${await makeTempDir('gitstage-')}/app`;
  git('init', '-q', repo);
  await plant(`${repo}/src/app.js`, 'export const port = 8080;\n');
  await plant(`${repo}/README.md`, '# app\n');
  git('-C', repo, 'add', '-A');
  git('-C', repo, 'commit', '-qm', 'first');
});

const { pipeline, decide, run, expectDecisions } = shellCallsWithFreshPipeline(() => repo, intent);

/** The paths the index holds now. */
const staged = (): string[] => git('-C', repo, 'ls-files', '--cached').trim().split('\n');

describe('git stages no credential file without a card', () => {
  it('asks before staging an unignored .env or a file holding a token, and says why', async () => {
    await plant(`${repo}/.env`, 'API_KEY=sk-live-0123456789abcdef0123\n');
    await plant(`${repo}/src/local.ini`, `[github]\ntoken=${TOKEN}\n`);
    for (const command of [
      'git add -A',
      'git add .',
      'git add --all',
      'git add src',
      'cd src && git add -A',
    ]) {
      const outcome = await decide(command);
      expect(outcome.decision, command).toBe('ask');
      expect(outcome.reason, command).toMatch(/git would stage or commit /);
    }
  });

  it('asks before committing a token pasted into a tracked file', async () => {
    await plant(`${repo}/src/app.js`, `export const token = '${TOKEN}';\n`);
    for (const command of ['git commit -am wip', 'git commit -m wip src/app.js', 'git add -u'])
      expect((await decide(command)).decision, command).toBe('ask');
  });

  it.skipIf(!sandboxWorks)('never puts the .env into the index', async () => {
    await plant(`${repo}/.env`, 'API_KEY=sk-live-0123456789abcdef0123\n');
    const outcome = await decide('git add -A');
    if (outcome.decision === 'allow')
      await pipeline().invoke(outcome, new AbortController().signal);
    expect(staged()).not.toContain('.env');
  });

  it.skipIf(!sandboxWorks)(
    'still stages ordinary files, and where the .env is ignored',
    async () => {
      await plant(`${repo}/.gitignore`, '.env\n');
      await plant(`${repo}/.env`, 'API_KEY=sk-live-0123456789abcdef0123\n');
      await plant(`${repo}/notes.txt`, 'todo: tests\n');
      await plant(`${repo}/src/app.js`, 'export const port = 9090;\n');
      await run('git add -A');
      expect(staged()).toEqual(expect.arrayContaining(['.gitignore', 'notes.txt', 'src/app.js']));
      expect(staged()).not.toContain('.env');
      await run('git commit -qm "ignore env"');
      await plant(`${repo}/src/app.js`, 'export const port = 7070;\n');
      await expectDecisions('allow', ['git commit -am "port"', 'git add src', 'git add notes.txt']);
    },
  );
});
