// Files that hold a credential wherever they are (a project's .env, a key store, a private key
// pasted into notes, a bare repository's config with a login) are not read without a card, and
// a search of a tree that holds one leaves it out: in real runs, no planted secret is printed.
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const intent = 'look through my project and notes';
let pipeline: Pipeline;
let project: string;
let notes: string;

beforeAll(async () => {
  project = await makeTempDir('project-');
  execFileSync('git', ['init', '-q', project]);
  await writeFile(join(project, 'index.js'), 'console.log(process.env.DB_PASSWORD)\n');
  await writeFile(join(project, '.env'), 'DB_PASSWORD=PLANTED-DOTENV\n');
  await writeFile(join(project, '.env.example'), 'DB_PASSWORD=changeme\n');
  await writeFile(join(project, 'terraform.tfstate'), '{"password": "PLANTED-TFSTATE"}\n');
  // A Python virtualenv named .env is a directory, not a credential file.
  await mkdir(join(project, 'venv', '.env', 'bin'), { recursive: true });
  notes = await makeTempDir('notes-');
  await writeFile(
    join(notes, 'server-backup.txt'),
    '-----BEGIN OPENSSH PRIVATE KEY-----\nPLANTED-KEY-BODY\n-----END OPENSSH PRIVATE KEY-----\n',
  );
  await writeFile(join(notes, 'Passwords.kdbx'), 'PLANTED-KDBX\n');
  await writeFile(join(notes, 'todo.md'), '- PLANTED-nothing-secret\n');
  const bare = join(notes, 'mirror.git');
  execFileSync('git', ['init', '-q', '--bare', bare]);
  execFileSync('git', [
    '-C',
    bare,
    'remote',
    'add',
    'origin',
    'https://ada:PLANTED-REMOTE-PASSWORD@git.example.com/ada/app.git',
  ]);
  pipeline = await pipelineWith({ roots: { write: ['~'] } });
});
afterAll(() => pipeline.close());

async function run(executor: string, args: Record<string, unknown>): Promise<unknown> {
  const outcome = await pipeline.evaluate(call(executor, args, intent));
  expect(outcome.decision, `${executor} ${JSON.stringify(args)}: ${outcome.reason}`).toBe('allow');
  const ran = await pipeline.invoke(outcome, new AbortController().signal);
  expect(ran.ok).toBe(true);
  return ran.ok ? ran.result : undefined;
}

describe('a file that holds a credential its place does not protect', () => {
  it('asks before fs_read, cat or grep reads one, by its name or by a private key in its text', async () => {
    for (const [executor, args] of [
      ['fs_read', { path: join(project, '.env') }],
      ['fs_read', { path: join(project, 'terraform.tfstate') }],
      ['fs_read', { path: join(notes, 'server-backup.txt') }],
      ['fs_read', { path: join(notes, 'Passwords.kdbx') }],
      ['fs_read', { path: join(notes, 'mirror.git', 'config') }],
      ['fs_grep', { pattern: 'PASSWORD', path: join(project, '.env') }],
      ['shell_exec', { command: 'cat .env', cwd: project }],
      ['shell_exec', { command: `head -n 3 ${join(notes, 'server-backup.txt')}` }],
      ['shell_exec', { command: 'grep -rn PASSWORD .', cwd: project }],
    ] as const) {
      const outcome = await pipeline.evaluate(call(executor, args, intent));
      expect(outcome.decision, `${executor} ${JSON.stringify(args)}`).toBe('ask');
    }
  });

  it('still reads a template, an ordinary file and a virtualenv named .env without a card', async () => {
    for (const [executor, args] of [
      ['fs_read', { path: join(project, '.env.example') }],
      ['fs_read', { path: join(notes, 'todo.md') }],
      ['fs_list', { path: join(project, 'venv', '.env') }],
      ['shell_exec', { command: 'cat .env.example', cwd: project }],
    ] as const) {
      const outcome = await pipeline.evaluate(call(executor, args, intent));
      expect(outcome.decision, `${executor} ${JSON.stringify(args)}`).toBe('allow');
    }
  });

  it('fs_grep over a tree leaves them out and says how many, printing no planted secret', async () => {
    for (const root of [project, notes, join(notes, 'mirror.git')]) {
      const result = await run('fs_grep', { pattern: 'PLANTED|PASSWORD', path: root });
      const printed = JSON.stringify(result);
      expect(printed, root).not.toMatch(/PLANTED-(?:DOTENV|TFSTATE|KEY|KDBX|REMOTE)/);
      expect(result).toMatchObject({ credentials_withheld: expect.any(Number) });
    }
    const found = await run('fs_grep', { pattern: 'PLANTED', path: notes });
    expect(JSON.stringify(found)).toContain('PLANTED-nothing-secret');
  });
});

describe('a credential file a repository tracks', () => {
  it('asks before git prints it from the objects, and still runs git status', async () => {
    const repo = await makeTempDir('committed-env-');
    const git = (...args: string[]): string =>
      execFileSync('git', ['-C', repo, '-c', 'user.name=a', '-c', 'user.email=a@a', ...args], {
        encoding: 'utf8',
      });
    git('init', '-q');
    await writeFile(join(repo, '.env'), 'API_KEY=PLANTED-COMMITTED\n');
    await writeFile(join(repo, 'app.py'), 'print(1)\n');
    git('add', '-A');
    git('commit', '-qm', 'start');
    git('rm', '-q', '--cached', '.env');
    git('commit', '-qm', 'forget the env file');
    for (const command of ['git show HEAD~1:.env', 'git log -p', 'git diff HEAD~1']) {
      const outcome = await pipeline.evaluate(call('shell_exec', { command, cwd: repo }, intent));
      expect(outcome.decision, command).not.toBe('allow');
    }
    const log = await pipeline.evaluate(
      call('shell_exec', { command: 'git status --short', cwd: repo }, intent),
    );
    expect(log.decision).toBe('allow');
  });
});

describe('malformed paths', () => {
  it('refuses a path with a NUL byte before any check reads the disk', async () => {
    const outcome = await pipeline.evaluate(
      call('fs_read', { path: `${join(notes, 'todo.md')}\0.txt` }, intent),
    );
    expect(outcome).toMatchObject({ decision: 'deny', stage: 'scope' });
    expect(outcome.reason).toContain('NUL');
  });
});
