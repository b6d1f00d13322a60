// Red team of project code without a card, second round (issue 6): the runner rules, the record
// of unreviewed writes and the sandbox around a work tree, through the real pipeline (real
// parser, real files, real git, pytest and bubblewrap). Closed holes are regressions; open ones,
// whose fix is outside runners.ts, are todos holding the command and what it did.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';
import { shellCalls } from './planted-files.ts';
import { exists } from '../helpers/exists.ts';
import { hasPytest } from '../helpers/tools.ts';
import { installNodePackages } from './node-packages.ts';

const intent = 'build and test my project';
let project: string;
let pipeline: Pipeline;

beforeEach(async () => {
  project = await makeTempDir('app-');
  execFileSync('git', ['init', '-q', project]);
  await installNodePackages(project);
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
});
afterEach(() => {
  pipeline.close();
});

const { decide, expectDecisions, run } = shellCalls(
  () => pipeline,
  () => project,
  intent,
);

describe('project code red team: holes closed in runners.ts', () => {
  beforeEach(async () => {
    await mkdir(join(project, 'src'));
    await writeFile(join(project, 'src', 'work.py'), 'UNSAVED = 1\n');
    await writeFile(join(project, 'test_a.py'), 'def test_a(tmp_path):\n    assert tmp_path\n');
    execFileSync('git', ['-C', project, 'add', 'test_a.py']);
  });

  it('pytest --basetemp=src asks: pytest empties the directory first, so it deleted src/work.py', async () => {
    await expectDecisions('ask', [
      'python3 -m pytest -q --basetemp=src',
      'pytest --basetemp src',
      'pytest --junitxml=src/work.py',
      'pytest --junit-xml src/work.py',
      'pytest --log-file=src/work.py',
      'pytest -o cache_dir=src --cache-clear',
      'pytest -qo cache_dir=src',
      'pytest -pconftest_evil',
    ]);
  });

  it.skipIf(!hasPytest)(
    "the project's own pytest run still runs without a card and writes only its tmp_path (needs pytest)",
    async () => {
      expect(await run('python3 -m pytest -q -x')).toMatchObject({ exit_code: 0 });
      expect(await readFile(join(project, 'src', 'work.py'), 'utf8')).toBe('UNSAVED = 1\n');
    },
  );

  it("a path attached to a short option or after @ stays in the project: 'pytest -c/home/u/evil.ini' loaded the plugin its addopts named from its pythonpath", async () => {
    const outside = await makeTempDir('outside-');
    await writeFile(
      join(outside, 'evilmod.py'),
      `open(${JSON.stringify(join(project, 'pwned'))}, 'w')\n`,
    );
    await writeFile(
      join(outside, 'evil.ini'),
      `[pytest]\naddopts = -p evilmod\npythonpath = ${outside}\n`,
    );
    await expectDecisions('ask', [
      `python3 -m pytest -q -c${join(outside, 'evil.ini')} --rootdir=.`,
      `pytest -qc${join(outside, 'evil.ini')}`,
      'pytest -c../evil.ini',
      'pytest -c~/evil.ini',
      `pytest @${join(outside, 'args.txt')}`,
      './build.sh -o/etc/x',
    ]);
    expect(await exists(join(project, 'pwned'))).toBe(false);
    await expectDecisions('allow', [
      'pytest -q -c pytest.ini',
      'pytest tests/test_a.py::test_a',
      'go test ./...',
    ]);
  });

  it('options that write over or clear a named path ask, for each tool and through a package script', async () => {
    await expectDecisions('ask', [
      'npx eslint -o src/work.py src',
      'npx eslint --output-file=src/work.py src',
      'npx tsc --outFile src/work.py',
      'npx tsc --OUTDIR src',
      'npx vitest run --outputFile.json=src/work.py',
      'npx vitest run --coverage.reportsDirectory=src',
      'npx jest --clearCache --cacheDirectory=src',
      'npx prettier --cache-location=src/work.py --check .',
      'npm test -- --clearCache --cacheDirectory=src',
      'npm run lint -- --output-file src/work.py',
      'go build -o src/work.py .',
      'go test -coverprofile=src/work.py ./...',
      "go build -ldflags='-linkmode=external -extld=sh' .",
      'cargo test -- --logfile src/work.py',
      'cargo build -Zunstable-options',
      'cargo doc --open',
    ]);
    await expectDecisions('allow', [
      'pytest -q -x -k slow -ra',
      'npx eslint --cache src --ext .ts',
      'npx prettier --write src',
      'npx tsc --noEmit -p tsconfig.json',
      'npm test -- -t login',
      'go test -run TestLogin -v ./...',
      'cargo test --release -- --nocapture',
      // A script's own options are the script's: the runner does not read them.
      'python3 scripts/gen.py -o out.txt',
    ]);
  });

  it("a build tool's option that names where it writes asks, known to the lists or not", async () => {
    await expectDecisions('ask', [
      'cargo test --target-dir src',
      'cargo build --target-dir=.',
      'cargo bench --artifact-dir src',
      'cargo doc --target-dir src --no-deps',
      'npx tsc --rootDir src --declarationDir src',
      'npx jest --coverageDirectory src',
      'python3 -m mypy --junit-xml src/work.py src',
      'npx some-new-tool --report-dir src',
      'npm test -- --snapshot-dir src',
    ]);
    await expectDecisions('allow', [
      'cargo test --workspace --all-targets',
      'cargo build --profile release',
      'npx jest --testPathPattern=login',
      'pytest -q --log-cli-level=DEBUG',
      'go test -count=1 -timeout 30s ./...',
    ]);
  });
});

describe('project code red team: a shell script found in PATH', () => {
  it("bash with a script name and no slash asks unless it ends in .sh: bash looks it up in PATH, and 'bash python3 -c code' ran a pyenv shim with inline code", async () => {
    await expectDecisions('ask', [
      'bash python3 -c \'open("pwned", "w")\'',
      'bash pip3 install left-pad',
      'sh ldd ./a.out',
    ]);
    await writeFile(join(project, 'check.sh'), 'echo checked > out.txt\n');
    execFileSync('git', ['-C', project, 'add', 'check.sh']);
    expect(await run('bash check.sh')).toMatchObject({ exit_code: 0 });
    expect(await readFile(join(project, 'out.txt'), 'utf8')).toBe('checked\n');
    await expectDecisions('allow', ['sh ./check.sh', 'bash scripts/check.bash']);
  });
});

describe('project code red team: a package binary in place of a script', () => {
  it("yarn and pnpm run take no words after the name: with no such script yarn runs the dependency's binary ('yarn run cross-env sh -c code', 'yarn run rimraf src')", async () => {
    await expectDecisions('ask', [
      "yarn run cross-env sh -c 'rm -rf src'",
      'yarn run rimraf src',
      'yarn run shx rm -rf src',
      'pnpm run rimraf src',
    ]);
    await expectDecisions('allow', [
      'yarn run build',
      'yarn test',
      'pnpm run lint -s',
      'npm run lint -- --fix',
    ]);
  });
});

describe("project code red team: a dependency's or an environment's command as a project script", () => {
  it('a script below node_modules or a hidden dir, a launcher, or a command in a virtualenv bin/ asks: their words are code', async () => {
    await mkdir(join(project, 'node_modules', '.bin'), { recursive: true });
    await symlink(
      join(process.cwd(), 'node_modules', '.bin', 'tsx'),
      join(project, 'node_modules', '.bin', 'tsx'),
    );
    execFileSync('python3', ['-m', 'venv', '--without-pip', join(project, 'venv')]);
    await writeFile(join(project, 'venv', 'bin', 'flask'), '#!/bin/sh\n');
    await mkdir(join(project, 'scripts'));
    await writeFile(
      join(project, 'scripts', 'build.js'),
      "require('fs').writeFileSync('built', 'x');\n",
    );
    execFileSync('git', ['-C', project, 'add', 'scripts']);
    await expectDecisions('ask', [
      `./node_modules/.bin/tsx -e "require('fs').rmSync('scripts', { recursive: true })"`,
      'node node_modules/tsx/dist/cli.mjs -e 1',
      './venv/bin/python -c \'import shutil; shutil.rmtree("scripts")\'',
      'venv/bin/python3 -c 1',
      './venv/bin/flask shell',
      './.venv/bin/ipython -c 1',
      'bash node_modules/.bin/x.sh',
      './tools/node -e 1',
    ]);
    await expectDecisions('ask', ['./bin/flask shell', 'bin/python -c 1'], join(project, 'venv'));
    expect(await run('node scripts/build.js')).toMatchObject({ exit_code: 0 });
    expect(await exists(join(project, 'built'))).toBe(true);
    await expectDecisions('allow', ['./bin/setup.sh', 'python3 tools/gen.py']);
  });
});

describe("project code red team: a project script's words", () => {
  it('a word with spaces, quotes or brackets, or one that hands the next to an interpreter, asks: the script may run it as code', async () => {
    await expectDecisions('ask', [
      `python3 manage.py shell -c "import shutil; shutil.rmtree('src')"`,
      'python3 manage.py shell',
      'python3 manage.py dbshell',
      './bin/rails runner User.delete_all',
      "./bin/rails runner 'User.delete_all'",
      'node scripts/run.js --eval=1',
      "./run.sh 'rm -rf src'",
    ]);
    await expectDecisions('allow', [
      'python3 manage.py test',
      './build.sh --dry-run',
      'node scripts/build.js --out=dist/app.js',
      'bash scripts/check.sh -v lint',
    ]);
  });
});

describe('project code red team: ideas that held', () => {
  it('interpreter options, package-manager flags and git spellings that would run other code ask', async () => {
    await expectDecisions('ask', [
      'node -r ./x.js build.js',
      'node --require=./x.js build.js',
      'bash -x scripts/check.sh',
      'python3 -X importtime build.py',
      'python3 -m http.server',
      'python3 -m pip install x',
      'npx -y tsc',
      'npx --package=evil tsc',
      'npm test --prefix=..',
      'yarn --cwd /etc build',
      'cargo +nightly test',
      'make --eval=x',
      'make -- -f evil.mk',
      'git -c core.pager=sh status',
      'env GIT_CONFIG_COUNT=0 git commit -m x',
      'GIT_DIR=/tmp/x git add -A',
    ]);
  });

  it('a write through another spelling of the tree (a symlinked dir, mv, cp -r, chmod +x) is still seen', async () => {
    const alias = join(process.env.HOME ?? '', 'alias-of-project');
    await symlink(project, alias);
    await writeFile(join(project, 'tool.sh'), 'echo hi\n');
    execFileSync('git', ['-C', project, 'add', 'tool.sh']);
    await mkdir(join(project, 'tpl'));
    for (const command of [
      "printf 'all:\\n\\ttouch pwned\\n' > Makefile.new",
      'mv Makefile.new Makefile',
      'cp -r tpl scripts',
      'chmod +x tool.sh',
    ]) {
      await run(command, alias);
      const make = await decide('make');
      expect(make, command).toMatchObject({ decision: 'allow', grant: { tier: 'read-only-code' } });
      // A person's approval of the card the model asks for reviews what it named (a target with no rule).
      const approved = await pipeline.evaluate(
        call(
          'shell_exec',
          { command: 'make -s none', cwd: project, request_approval: true },
          intent,
          { approvedBy: 'local:1' },
        ),
      );
      expect(await pipeline.invoke(approved, new AbortController().signal)).toMatchObject({
        ok: true,
      });
      expect(await decide('make -s none')).toMatchObject({ grant: { tier: 'project-code' } });
    }
    expect(await exists(join(project, 'pwned'))).toBe(false);
  });
});
