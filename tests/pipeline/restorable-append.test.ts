// `echo ".DS_Store" >> .gitignore` in a project: an append to a file git can give back (tracked,
// unmodified, plain, in a work tree that is not the home) runs without a card, recorded, and the
// run asks git again. ~/.bashrc, a dotfiles repo in the home, scripts, hooks, CI configs, hidden
// settings, links and files git cannot give back keep their card.
import { chmod, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { pipelineWith } from './pipeline-helpers.ts';
import { git, plant, shellCalls } from './planted-files.ts';

/** A work tree at `dir` with `files` committed. */
async function repository(dir: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) await plant(join(dir, name), text);
  git('init', '-q', dir);
  git('-C', dir, 'add', '-A');
  git('-C', dir, 'commit', '-qm', 'init');
}

describe('an append to a file git can give back', () => {
  let pipeline: Pipeline;
  let app: string;
  beforeAll(async () => {
    pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
    app = await makeTempDir('app-');
    await repository(app, {
      '.gitignore': 'node_modules\n',
      'docs/notes.rst': 'notes\n',
      Makefile: 'all:\n\ttrue\n',
      'build.sh': 'true\n',
      '.envrc': 'export A=1\n',
      '.github/workflows/ci.yml': 'on: push\n',
      'dirty.cfg': 'a\n',
      'linked.cfg': 'a\n',
    });
    await chmod(join(app, 'build.sh'), 0o755);
    git('-C', app, 'add', '-A');
    git('-C', app, 'commit', '-qm', 'script');
    await writeFile(join(app, 'dirty.cfg'), 'unsaved\n');
    await writeFile(join(app, 'untracked.cfg'), 'a\n');
    await symlink(join(app, 'linked.cfg'), join(app, 'link.cfg'));
  });
  afterAll(() => pipeline.close());
  const { decide, run, expectNotAllowed } = shellCalls(
    () => pipeline,
    () => app,
    'ignore .DS_Store',
  );

  it('runs without a card, appends in a real run, keeps .git read-only and records it', async () => {
    const outcome = await decide('echo ".DS_Store" >> .gitignore && git status --short');
    expect(outcome).toMatchObject({
      decision: 'allow',
      reason: 'workspace: append: a file git can give back',
    });
    expect(outcome.decision === 'allow' && outcome.grant).toMatchObject({
      writable: [app],
      readOnlyWithin: [join(app, '.git')],
      records: [join(app, '.gitignore')],
      replaces: true,
    });
    expect(await run('echo ".DS_Store" >> .gitignore && git status --short')).toMatchObject({
      exit_code: 0,
      stdout: expect.stringContaining('.gitignore'),
    });
    expect(await readFile(join(app, '.gitignore'), 'utf8')).toBe('node_modules\n.DS_Store\n');
  });

  it('reads tee -a and a file below the top the same way', async () => {
    await expect(decide('printf "x\\n" | tee -a docs/notes.rst Makefile')).resolves.toMatchObject({
      decision: 'allow',
    });
  });

  it('refuses the run when the file changed after the decision', async () => {
    const outcome = await decide('echo "all: x" >> Makefile');
    expect(outcome).toMatchObject({ decision: 'allow' });
    await writeFile(join(app, 'Makefile'), 'changed\n');
    const ran = await pipeline.invoke(outcome, new AbortController().signal);
    expect(ran).toMatchObject({ ok: false });
    expect(await readFile(join(app, 'Makefile'), 'utf8')).toBe('changed\n');
  });

  it('asks for scripts, hidden settings, CI configs, git files, links, files git cannot give back and mixed writes', async () => {
    await expectNotAllowed([
      'echo rm -rf ~ >> build.sh',
      'echo "export B=2" >> .envrc',
      'echo "  - run: x" >> .github/workflows/ci.yml',
      'echo "x" >> .git/info/exclude',
      'echo "x" >> .git/config',
      'echo "x" >> link.cfg',
      'echo "x" >> dirty.cfg',
      'echo "x" >> untracked.cfg',
      'echo "x" >> .gitignore && echo y > new.cfg',
      'echo "x" >> .gitignore && git add .gitignore',
      'echo "alias gs=\'git status\'" >> ~/.bashrc',
    ]);
  });
});

describe('a dotfiles repository whose work tree is the home', () => {
  let pipeline: Pipeline;
  let home: string;
  beforeAll(async () => {
    home = await makeTempDir('dotfiles-home-');
    await repository(home, { '.bashrc': '# mine\n', 'notes/todo.cfg': 'a\n', 'todo.cfg': 'a\n' });
    pipeline = await pipelineWith(
      { roots: { write: ['~', '/tmp'] } },
      { ...process.env, HOME: home },
    );
  });
  afterAll(() => pipeline.close());
  const { expectNotAllowed } = shellCalls(
    () => pipeline,
    () => home,
    'add an alias',
  );

  it('asks for an append to any file of it', async () => {
    await expectNotAllowed([
      'echo "alias gs=\'git status\'" >> ~/.bashrc',
      'echo "x" >> todo.cfg',
      'echo "x" >> notes/todo.cfg',
    ]);
  });
});
