// Files git itself runs are never written without a card: a hook in the directory the config's
// core.hooksPath names (`githooks/`, tracked like any source file), a program a config key names
// (core.fsmonitor, a filter or diff driver, an alias with `!`), and a hooks directory the global
// config names. A change there runs on the person's next `git status` or `git commit`, on the
// host, outside any sandbox, so "git can give it back" is no reason to skip the card.
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';
import { git } from './planted-files.ts';

const intent = 'tidy up my project';
const home = process.env.HOME ?? '/nonexistent';
let pipeline: Pipeline;
let project: string;
let personalHooks: string;

beforeAll(async () => {
  project = await makeTempDir('project-');
  execFileSync('git', ['init', '-q', project]);
  await mkdir(join(project, 'githooks'));
  await mkdir(join(project, 'scripts'));
  await mkdir(join(project, 'src'));
  await writeFile(join(project, 'githooks', 'pre-commit'), '#!/bin/sh\necho checking\n');
  await chmod(join(project, 'githooks', 'pre-commit'), 0o755);
  await writeFile(join(project, 'githooks', 'notes.txt'), 'hooks live here\n');
  await writeFile(join(project, 'fsmonitor.sh'), '#!/bin/sh\nexit 0\n');
  await writeFile(join(project, 'scripts', 'clean.sh'), '#!/bin/sh\ncat\n');
  await writeFile(join(project, 'scripts', 'release.sh'), '#!/bin/sh\necho release\n');
  await writeFile(join(project, 'src', 'a.js'), 'console.log("TODO")\n');
  git('-C', project, 'add', '-A');
  git('-C', project, 'commit', '-qm', 'start');
  git('-C', project, 'config', 'core.hooksPath', 'githooks');
  git('-C', project, 'config', 'core.fsmonitor', './fsmonitor.sh');
  git('-C', project, 'config', 'filter.tidy.clean', 'sh scripts/clean.sh %f');
  git('-C', project, 'config', 'alias.ship', '!./scripts/release.sh');
  // The person's own hooks for every repository, named by the global config.
  personalHooks = join(home, 'git-hooks');
  await mkdir(personalHooks, { recursive: true });
  await writeFile(join(home, '.gitconfig'), `[core]\n\thooksPath = ~/git-hooks\n`);
  pipeline = await pipelineWith({ roots: { write: ['~'] } });
});
afterAll(() => pipeline.close());

async function decisionOf(executor: string, args: Record<string, unknown>): Promise<string> {
  const outcome = await pipeline.evaluate(call(executor, args, intent));
  return `${outcome.decision}: ${outcome.reason}`;
}

describe('what git runs is written only with a card', () => {
  it('a tracked hook in core.hooksPath, and a new one, ask', async () => {
    const hook = join(project, 'githooks', 'pre-commit');
    expect(
      await decisionOf('fs_edit', { path: hook, old_text: 'checking', new_text: 'x' }),
    ).toMatch(/^ask/);
    expect(await decisionOf('fs_write', { path: hook, content: '#!/bin/sh\n' })).toMatch(/^ask/);
    expect(
      await decisionOf('fs_write', {
        path: join(project, 'githooks', 'post-checkout'),
        content: 'x',
      }),
    ).toMatch(/^ask/);
    expect(
      await decisionOf('shell_exec', { command: 'chmod +x githooks/notes.txt', cwd: project }),
    ).toMatch(/^ask/);
    expect(
      await decisionOf('shell_exec', {
        command: "sed -i 's/checking/x/' githooks/pre-commit",
        cwd: project,
      }),
    ).toMatch(/^ask/);
  });

  it('a program the repository config names (fsmonitor, a filter, a ! alias) asks', async () => {
    for (const [file, text] of [
      ['fsmonitor.sh', 'exit 0'],
      ['scripts/clean.sh', 'cat'],
      ['scripts/release.sh', 'echo release'],
    ] as const) {
      expect(
        await decisionOf('fs_edit', { path: join(project, file), old_text: text, new_text: 'x' }),
        file,
      ).toMatch(/^ask/);
    }
  });

  it('a new file in the hooks directory the global config names asks', async () => {
    expect(
      await decisionOf('fs_write', { path: join(personalHooks, 'pre-push'), content: 'x' }),
    ).toMatch(/^ask/);
  });

  it('an ordinary tracked file in the same repository is still edited without a card', async () => {
    expect(
      await decisionOf('fs_edit', {
        path: join(project, 'src', 'a.js'),
        old_text: 'TODO',
        new_text: 'DONE',
      }),
    ).toBe('allow: workspace: a file git can give back');
    expect(await decisionOf('fs_write', { path: join(project, 'src', 'b.js'), content: 'x' })).toBe(
      'allow: workspace: new file',
    );
  });
});
