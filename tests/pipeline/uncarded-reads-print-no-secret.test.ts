// What a read without a card prints: never a secret, wherever it lives and whatever a program
// makes of its operands. Driven through the real pipeline, and each line the pipeline allows is
// run for real in the sandbox, in a home of planted secrets outside the usual stores.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const intent = 'help me with my files';
/** A store below the home's top level: the guard forbids it by name, no sandbox mask hides it. */
const NESTED_NETRC = 'FAKE-NESTED-NETRC-PASSWORD';
let root: string;
let pipeline: Pipeline;

async function plant(path: string, content: string): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, content);
}

beforeEach(async () => {
  root = await makeTempDir('reads-');
  await plant(join(root, 'dotfiles', '.netrc'), `machine x password ${NESTED_NETRC}\n`);
  await plant(join(root, 'dotfiles', 'aliases'), 'alias ll=ls\n');
  await plant(join(root, 'notes', 'todo.md'), '# todo\n');
  await plant(join(root, 'notes', 'plan.txt'), 'plan\n');
  await plant(join(root, 'Documents', 'todo.md'), '# old todo\n');
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
});
afterEach(() => {
  pipeline.close();
});

function decide(command: string, cwd = root): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command, cwd }, intent));
}

/** Runs the command if a tier allowed it; returns what it printed ('' when it needed a card). */
async function runIfUncarded(command: string, cwd = root): Promise<string> {
  const outcome = await decide(command, cwd);
  if (outcome.decision !== 'allow') return '';
  return JSON.stringify(await pipeline.invoke(outcome, new AbortController().signal));
}

describe('a directory that a comparing program opens inside', () => {
  it('is read as the tree it is: diff of two directories prints no protected file in either', async () => {
    const notes = join(root, 'notes');
    for (const [command, cwd] of [
      ['diff -N dotfiles notes', root],
      ['diff -Nu dotfiles/ notes/', root],
      ['diff --new-file notes dotfiles', root],
      ['diff --unidirectional-new-file dotfiles notes', root],
      ['diff -N -x todo.md -- dotfiles notes', root],
      ['diff -N --from-file dotfiles notes', root],
      ['diff -N --to-file=notes dotfiles', root],
      ['diff -N d*s notes', root],
      ['diff -N dotfile? notes', root],
      ['diff -N ../dotfiles .', notes],
      [`diff -N ${root}/dotfiles .`, notes],
    ] as const) {
      expect((await decide(command, cwd)).decision, command).not.toBe('allow');
      expect(await runIfUncarded(command, cwd), command).not.toContain(NESTED_NETRC);
    }
  });

  it('still compares ordinary files and folders without a card', async () => {
    for (const command of [
      'diff -u notes/todo.md Documents/todo.md',
      'diff -u Documents notes',
      'diff notes/plan.txt /etc/hostname',
    ])
      expect((await decide(command)).decision, command).toBe('allow');
    expect(await runIfUncarded('diff -u Documents notes')).toContain('old todo');
  });
});

describe('a file that holds a credential, wherever it lives', () => {
  // Realistic shapes: a key block, a GitHub token, an env file, a netrc copy, an AWS profile copy.
  const KEY_LINE = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW';
  const TOKEN = 'ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
  const ENV_VALUE = 'project-db-password-77';
  const NETRC_VALUE = 'netrc-backup-password';
  const AWS_VALUE = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

  beforeEach(async () => {
    const key = `-----BEGIN OPENSSH PRIVATE KEY-----\n${KEY_LINE}\n-----END OPENSSH PRIVATE KEY-----\n`;
    await plant(join(root, 'backup', 'id_rsa'), key);
    await plant(join(root, 'Downloads', 'server.key'), key);
    await plant(join(root, 'Downloads', 'token.txt'), `my token: ${TOKEN}\n`);
    await plant(join(root, 'app', '.env'), `DB_PASSWORD=${ENV_VALUE}\nDEBUG=true\n`);
    await plant(join(root, 'app', '.env.example'), 'DB_PASSWORD=\nDEBUG=true\n');
    await plant(join(root, 'app', 'index.js'), 'console.log(process.env.DEBUG)\n');
    await plant(join(root, 'old', 'netrc.bak'), `machine x login a password ${NETRC_VALUE}\n`);
    await plant(join(root, 'old', 'aws.txt'), `[default]\naws_secret_access_key = ${AWS_VALUE}\n`);
  });

  it('is not printed without a card, by a read of it or of a tree or glob holding it', async () => {
    const app = join(root, 'app');
    for (const [command, cwd] of [
      ['cat backup/id_rsa', root],
      ['head -n 3 Downloads/server.key', root],
      ['cat Downloads/*.key', root],
      ['tail Downloads/token.txt', root],
      ['cat old/netrc.bak', root],
      ['cat old/aws.txt', root],
      ['cat .env', app],
      ['grep PASSWORD .env', app],
      ['head .env*', app],
      ['grep -r PASSWORD .', app],
      ['grep -rn BEGIN backup', root],
    ] as const) {
      expect((await decide(command, cwd)).decision, command).not.toBe('allow');
      const printed = await runIfUncarded(command, cwd);
      for (const secret of [KEY_LINE, TOKEN, ENV_VALUE, NETRC_VALUE, AWS_VALUE])
        expect(printed, command).not.toContain(secret);
    }
  });

  it('leaves files without one readable: a template env file, code, notes', async () => {
    const app = join(root, 'app');
    for (const command of ['cat .env.example', 'cat index.js', 'grep -n DEBUG *.js'])
      expect((await decide(command, app)).decision, command).toBe('allow');
    expect((await decide('cat notes/todo.md')).decision).toBe('allow');
  });
  // A credential under an ordinary name in a walked tree, and one that appears after the
  // decision: uncarded-credentials-under-any-name.test.ts.
});

describe('a file a program opens because its words say so, not because they name it', () => {
  const JSON_SECRET = 'FAKE-JSON-PASSWORD-IN-BACKUP';

  beforeEach(async () => {
    await plant(join(root, 'backup', 'creds.json'), `{"password":"${JSON_SECRET}"}\n`);
    await plant(join(root, 'backup', 'creds'), `{"password":"${JSON_SECRET}"}\n`);
    await plant(join(root, 'notes', 'prog.jq'), 'import "backup/creds" as $x; $x');
    await plant(join(root, 'notes', 'page.1'), `.TH X 1\n.so ${root}/backup/creds\n`);
    await plant(join(root, 'data.json'), '{"name":"custode"}\n');
  });

  it('jq loads no module or data file its program names, and man renders no local page', async () => {
    for (const command of [
      `jq -n 'import "backup/creds" as $x; $x'`,
      `jq -n -L backup 'import "creds" as $x; $x'`,
      `jq -n 'include "backup/creds"; 1'`,
      'jq -n -f notes/prog.jq',
      'jq -n --from-file notes/prog.jq',
      'man ./notes/page.1',
      `man ${root}/notes/page.1`,
    ]) {
      expect((await decide(command)).decision, command).not.toBe('allow');
      expect(await runIfUncarded(command), command).not.toContain(JSON_SECRET);
    }
  });

  it('jq filters and man pages by name still run without a card', async () => {
    for (const command of ['jq -r .name data.json', "jq '.name' data.json", 'man 5 crontab'])
      expect((await decide(command)).decision, command).toBe('allow');
  });
});
