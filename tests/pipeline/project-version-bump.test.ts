// `npm version minor --no-git-tag-version` is project code: it rewrites package.json and its lock
// file and runs the package's version scripts, so it runs without a card as `npm test` does (the
// work tree writable, .git read-only, no network). Without --no-git-tag-version it commits and
// tags, which the read-only .git would doom: it asks.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { hasProgram } from '../helpers/tools.ts';
import { pipelineWith } from './pipeline-helpers.ts';
import { git, shellCalls } from './planted-files.ts';

const PACKAGE = {
  name: 'app',
  version: '1.2.3',
  scripts: { version: "node -e \"require('fs').writeFileSync('VERSIONED', 'yes')\"" },
};

describe('a version bump without a git tag', () => {
  let pipeline: Pipeline;
  let app: string;
  beforeAll(async () => {
    pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
    app = await makeTempDir('app-');
    await writeFile(join(app, 'package.json'), `${JSON.stringify(PACKAGE, null, 2)}\n`);
    await writeFile(
      join(app, 'package-lock.json'),
      `${JSON.stringify({ name: 'app', version: '1.2.3', lockfileVersion: 3, packages: { '': { name: 'app', version: '1.2.3' } } }, null, 2)}\n`,
    );
    git('init', '-q', app);
    git('-C', app, 'add', '-A');
    git('-C', app, 'commit', '-qm', 'init');
  });
  afterAll(() => pipeline.close());
  const { decide, run, expectNotAllowed } = shellCalls(
    () => pipeline,
    () => app,
    'bump it',
  );

  it('is project code: the work tree writable, .git read-only', async () => {
    const outcome = await decide('npm version minor --no-git-tag-version');
    expect(outcome).toMatchObject({
      decision: 'allow',
      reason: 'workspace: npm version',
      grant: { tier: 'project-code', writable: [app], readOnlyWithin: [join(app, '.git')] },
    });
  });

  it('asks when it would commit and tag, or the version is not a plain step', async () => {
    await expectNotAllowed([
      'npm version minor',
      'npm version minor --git-tag-version=false',
      'npm version from-git --no-git-tag-version',
      'npm version minor --no-git-tag-version --workspaces',
      'npm version minor --no-git-tag-version -m "v%s"',
      'npm version minor major --no-git-tag-version',
    ]);
  });

  it.skipIf(!hasProgram('npm'))(
    'bumps package.json and its lock file and runs the version script, in a real run',
    async () => {
      await run('npm version minor --no-git-tag-version');
      expect(JSON.parse(await readFile(join(app, 'package.json'), 'utf8'))).toMatchObject({
        version: '1.3.0',
      });
      expect(JSON.parse(await readFile(join(app, 'package-lock.json'), 'utf8'))).toMatchObject({
        version: '1.3.0',
      });
      expect(await readFile(join(app, 'VERSIONED'), 'utf8')).toBe('yes');
      expect(git('-C', app, 'tag')).toBe('');
    },
  );
});
