// Project code without a card: the decision, and what the real sandbox lets it write.
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../runtime/config.ts';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith, writableOf } from './pipeline-helpers.ts';
import { exists } from '../helpers/exists.ts';
import { installNodePackages } from './node-packages.ts';

const intent = 'build and test my project';
let project: string;
let pipeline: Pipeline | undefined;

async function open(config: ConfigInput = {}): Promise<Pipeline> {
  pipeline?.close();
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] }, ...config });
  return pipeline;
}

async function decide(command: string, cwd: string = project): Promise<PipelineOutcome> {
  const current = pipeline ?? (await open());
  return current.evaluate(call('shell_exec', { command, cwd }, intent));
}

beforeEach(async () => {
  project = await makeTempDir('app-');
  execFileSync('git', ['init', '-q', project]);
  await mkdir(join(project, 'src'));
  await installNodePackages(project);
});
afterEach(() => {
  pipeline?.close();
  pipeline = undefined;
});

describe('project code: the decision', () => {
  it('allows build, test and lint scripts in a git work tree, which it may write but not its .git', async () => {
    for (const [command, rule] of [
      ['npm run build', 'npm run'],
      ['npm test', 'npm run'],
      ['npx tsc --noEmit', 'npx'],
      ['nice make -j4 test', 'make'],
      ['cargo test', 'cargo'],
      ['go test ./...', 'go'],
      ['python3 -m pytest -q', 'python3'],
      ['./build.sh --dry-run', 'project script'],
      ['bash scripts/check.sh', 'bash'],
    ] as const) {
      const outcome = await decide(command, join(project, 'src'));
      expect(outcome, command).toMatchObject({
        decision: 'allow',
        reason: `workspace: ${rule}`,
        grant: {
          tier: 'project-code',
          writable: [project],
          readOnlyWithin: [join(project, '.git')],
        },
      });
    }
  });

  it('runs a tool through npx only when the project has its package; else npx would fetch it, and it asks', async () => {
    const bare = await makeTempDir('bare-');
    execFileSync('git', ['init', '-q', bare]);
    await mkdir(join(bare, 'src'));
    for (const command of ['npx prettier --write .', 'npx tsc --noEmit', 'npx eslint src']) {
      expect(await decide(command, bare), command).toMatchObject({ decision: 'ask' });
      expect(await decide(`cd ${bare} && ${command}`, project), command).toMatchObject({
        decision: 'ask',
      });
      expect(await decide(command, join(project, 'src')), command).toMatchObject({
        decision: 'allow',
        reason: 'workspace: npx',
      });
    }
    // The nearest node_modules is the one npx uses: a package only further up is not found.
    await mkdir(join(bare, 'node_modules'));
    await installNodePackages(join(bare, 'src'));
    expect(await decide('npx tsc --noEmit', bare)).toMatchObject({ decision: 'ask' });
    expect(await decide('npx tsc --noEmit', join(bare, 'src'))).toMatchObject({
      decision: 'allow',
    });
  });

  it('lets project code write nothing outside a git work tree', async () => {
    const plain = await makeTempDir('plain-');
    const outcome = await decide('make test', plain);
    expect(outcome).toMatchObject({
      decision: 'allow',
      reason: 'workspace: make',
      grant: { writable: [] },
    });
    expect(await decide('make 2>&1 | tee build.log', plain)).toMatchObject({ decision: 'ask' });
    // Project code runs alone: what the call writes could be the code it runs.
    expect(await decide('make 2>&1 | tee build.log')).toMatchObject({ decision: 'ask' });
    expect(await decide("echo 'all:; rm -rf .' > Makefile && make")).toMatchObject({
      decision: 'ask',
    });
  });

  it('asks for installs, fetches, other directories, loaded code and git changes beside it', async () => {
    for (const command of [
      'npm install',
      'npm run build --prefix /',
      'yarn add left-pad',
      'npx create-react-app x',
      'make -f /etc/x.mk',
      'make CC=evil',
      'cargo install ripgrep',
      'go get example.com/x',
      "python3 -c 'print(1)' > .envrc",
      'node -r ./x.js -e 1',
      'bash /etc/x.sh',
      './../x.sh',
      'bash ../x.sh',
      'make && git commit -m built',
      'go test -exec sh ./...',
      'go vet -vettool=/bin/sh ./...',
      'cargo build --config build.rustc-wrapper=sh',
      'python3 -m pytest -p evil',
      'pytest -c /etc/x.ini',
      'npx prettier --plugin=/tmp/x.js .',
      'npm test -- ~/other',
      'make > ~/build.log',
    ]) {
      expect(await decide(command), command).toMatchObject({ decision: 'ask' });
    }
  });

  it('asks when config turns project code off, or sets read roots the sandbox cannot hold it to', async () => {
    await open({ approvals: { workspace_catalogue: { project_code: false } } });
    expect(await decide('npm test')).toMatchObject({ decision: 'ask' });
    expect(await decide('mkdir -p out')).toMatchObject({ decision: 'allow' });
    await open({ roots: { read: ['~'], write: ['~'] } });
    expect(await decide('npm test')).toMatchObject({ decision: 'ask' });
  });
});

describe('project code: the sandbox holds it to its work tree', () => {
  it('writes the work tree, and cannot touch .git or anything beside the project', async () => {
    const script = join(project, 'build.sh');
    await writeFile(
      script,
      [
        'echo built > out.txt',
        'rm -rf .git 2>/dev/null',
        'touch ../beside.txt 2>/dev/null',
        'touch .git/planted 2>/dev/null',
        'exit 0',
      ].join('\n'),
    );
    await chmod(script, 0o755);
    const outcome = await decide('./build.sh');
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'workspace: project script' });
    const ran = await (pipeline as Pipeline).invoke(outcome, new AbortController().signal);
    expect(ran).toMatchObject({ ok: true, result: { exit_code: 0, sandbox: 'bwrap' } });
    expect(await readFile(join(project, 'out.txt'), 'utf8')).toBe('built\n');
    expect(await exists(join(project, '.git', 'HEAD'))).toBe(true);
    expect(await exists(join(project, '.git', 'planted'))).toBe(false);
    expect(await exists(join(project, '..', 'beside.txt'))).toBe(false);
  });
});

describe('project code outside a work tree: a failed write says how to ask', () => {
  it('notes the narrowing, and runs with the roots writable once a person approves', async () => {
    const plain = await makeTempDir('plain-');
    await writeFile(join(plain, 'build.sh'), 'echo built > out.txt\n');
    await chmod(join(plain, 'build.sh'), 0o755);
    const current = await open();
    const first = await decide('./build.sh', plain);
    expect(first).toMatchObject({ decision: 'allow', grant: { writable: [] } });
    const failed = await current.invoke(first, new AbortController().signal);
    expect(failed).toMatchObject({
      ok: true,
      result: {
        stderr: expect.stringMatching(/Read-only file system/),
        note: expect.stringMatching(/request_approval: true/),
      },
    });
    const args = { command: './build.sh', cwd: plain, request_approval: true };
    expect(await current.evaluate(call('shell_exec', args, intent))).toMatchObject({
      decision: 'ask',
    });
    const approved = await current.evaluate(
      call('shell_exec', args, intent, { approvedBy: 'local:1' }),
    );
    expect(writableOf(approved)).toBeUndefined();
    expect(await current.invoke(approved, new AbortController().signal)).toMatchObject({
      ok: true,
      result: { exit_code: 0 },
    });
    expect(await readFile(join(plain, 'out.txt'), 'utf8')).toBe('built\n');
  });
});

describe('project code: nested repositories stay read-only too', () => {
  it("cannot plant a hook in a vendored clone's .git, and still writes the clone's files", async () => {
    const vendored = join(project, 'vendor', 'lib');
    await mkdir(vendored, { recursive: true });
    execFileSync('git', ['init', '-q', vendored]);
    await writeFile(
      join(project, 'build.sh'),
      [
        'echo hook > vendor/lib/.git/hooks/pre-commit 2>/dev/null',
        'echo built > vendor/lib/out.txt',
        'exit 0',
      ].join('\n'),
    );
    await chmod(join(project, 'build.sh'), 0o755);
    const outcome = await decide('./build.sh');
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'workspace: project script' });
    const ran = await (pipeline as Pipeline).invoke(outcome, new AbortController().signal);
    expect(ran).toMatchObject({ ok: true, result: { exit_code: 0 } });
    expect(await readFile(join(vendored, 'out.txt'), 'utf8')).toBe('built\n');
    expect(await exists(join(vendored, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });
});
