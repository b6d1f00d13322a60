// A Python environment runs code nobody reads: every `.pth` file in site-packages at each start
// of its interpreter, sitecustomize.py, the commands in its bin/. A venv is usually git-ignored,
// so `git status` does not show a new file there. No call without a card writes into one (a
// directory holding pyvenv.cfg, or any site-packages or dist-packages).
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const intent = 'set up my project';
let pipeline: Pipeline;
let project: string;

beforeAll(async () => {
  project = await makeTempDir('project-');
  execFileSync('git', ['init', '-q', project]);
  await writeFile(join(project, '.gitignore'), 'venv/\n');
  await mkdir(join(project, 'venv', 'lib', 'python3.12', 'site-packages'), { recursive: true });
  await mkdir(join(project, 'venv', 'bin'), { recursive: true });
  await writeFile(join(project, 'venv', 'pyvenv.cfg'), 'home = /usr/bin\n');
  await mkdir(join(project, 'vendor', 'dist-packages'), { recursive: true });
  pipeline = await pipelineWith({ roots: { write: ['~'] } });
});
afterAll(() => pipeline.close());

describe('a Python environment is written only with a card', () => {
  it.each([
    'venv/lib/python3.12/site-packages/zz-hook.pth',
    'venv/lib/python3.12/site-packages/sitecustomize.py',
    'venv/bin/pytest',
    'venv/share/notes.txt',
    'vendor/dist-packages/startup.pth',
  ])('a new %s asks', async (file) => {
    const outcome = await pipeline.evaluate(
      call(
        'fs_write',
        { path: join(project, file), content: 'import os\n', create_dirs: true },
        intent,
      ),
    );
    expect(outcome.decision, outcome.reason).toBe('ask');
  });

  it('a new file in the project beside it still needs no card', async () => {
    const outcome = await pipeline.evaluate(
      call(
        'fs_write',
        { path: join(project, 'src', 'app.py'), content: 'x = 1\n', create_dirs: true },
        intent,
      ),
    );
    expect(outcome.decision, outcome.reason).toBe('allow');
  });
});
