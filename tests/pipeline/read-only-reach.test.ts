// What a read-only call reaches beyond the words it writes (issue 6, red team): a glob's
// expansions and the trees a recursive reader walks stay in the user's own files, below a write
// root and out of hidden places, since the guard judges only the text and the sandbox does not
// mask every file the guard forbids (~/.config/<app>/credentials.env). Real parser, real files,
// real bubblewrap.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const home = process.env.HOME ?? '';
const secret = 'TOKEN=hunter2';
let project: string;
let pipeline: Pipeline;

beforeEach(async () => {
  await mkdir(join(home, '.config', 'app'), { recursive: true });
  await writeFile(join(home, '.config', 'app', 'credentials.env'), `${secret}\n`);
  project = await makeTempDir('project-');
  await mkdir(join(project, 'notes'));
  await writeFile(join(project, 'notes', 'a.md'), 'TOKEN in a note\n');
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
});
afterEach(() => {
  pipeline.close();
});

async function decide(command: string, cwd = project): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command, cwd }));
}

async function expectAsks(commands: readonly string[], cwd = project): Promise<void> {
  for (const command of commands) {
    expect(await decide(command, cwd), command).toMatchObject({ decision: 'ask' });
  }
}

/** Allowed by the read-only tier, run in the sandbox: its standard output. */
async function runAllowed(command: string, rule: string, cwd = project): Promise<string> {
  const outcome = await decide(command, cwd);
  expect(outcome, command).toMatchObject({ decision: 'allow', reason: `read-only: ${rule}` });
  const ran = await pipeline.invoke(outcome, new AbortController().signal);
  expect(ran, command).toMatchObject({ ok: true, result: { exit_code: 0 } });
  return ran.ok ? (ran.result as { stdout: string }).stdout : '';
}

describe('read-only reach: globs', () => {
  it('a glob in a hidden place asks: the guard forbids credentials.env by its full name only', async () => {
    // The guard's own glob check catches a pattern over its full name (as ~/.ss?/id_rsa).
    for (const command of [
      'cat ~/.config/app/credentials.env',
      'wc -c ~/.config/*/credentials.env',
    ])
      expect(await decide(command), command).toMatchObject({ decision: 'deny' });
    await expectAsks([
      'cat ~/.config/app/cred*',
      'cat ~/.config/app/credentials.en?',
      'head -n 5 ~/.config/app/*',
      'cat .config/app/cred*',
    ]);
    await expectAsks(['cat .config/app/cred*'], home);
    // Hidden below a cwd that is itself hidden, or through a symlink with a plain name.
    await expectAsks(['cat app/cred*'], join(home, '.config'));
    await symlink(join(home, '.config', 'app'), join(project, 'settings'));
    await expectAsks(['cat settings/cred*', 'tail settings/*']);
  });

  it('a glob outside the write roots asks (a system tree is not the user’s)', async () => {
    await expectAsks(['cat /etc/ssl/*.cnf', 'wc -l /var/log/*.log']);
    await expectAsks(['cat etc/ssl/*.cnf'], '/');
  });

  it('a glob in the workspace still runs without a card', async () => {
    expect(await runAllowed('cat notes/*.md', 'cat')).toBe('TOKEN in a note\n');
    expect(await runAllowed(`cat ${project}/notes/?.md`, 'cat', '/')).toBe('TOKEN in a note\n');
    const fromHome = `~/${basename(project)}/notes/*`;
    expect(await runAllowed(`cat ${fromHome}`, 'cat', '/')).toBe('TOKEN in a note\n');
  });
});

describe('read-only reach: recursive reads', () => {
  it('a recursion into a hidden place asks, from any working directory', async () => {
    await expectAsks(
      [
        'grep -r TOKEN .config',
        'grep -rn TOKEN .config/app',
        'grep -R TOKEN ./.config',
        'rg TOKEN .config',
        'diff -r .config notes',
      ],
      home,
    );
    await expectAsks(['grep -r TOKEN app'], join(home, '.config'));
    await symlink(join(home, '.config'), join(project, 'cfg'));
    await expectAsks(['grep -r TOKEN cfg', 'rg TOKEN cfg/app']);
  });

  it('a recursion from / or over the home asks: system trees and the home are not plain trees', async () => {
    await expectAsks(['grep -rl KEY etc/ssl', 'rg KEY etc', 'grep -r TOKEN tmp/../etc'], '/');
    // The home named from its parent: every hidden place in it would be read.
    await expectAsks([`grep -r TOKEN ${basename(home)}`], dirname(home));
    await expectAsks(['grep -r TOKEN ..', `grep -r TOKEN ../${basename(project)}/..`]);
  });

  it('a recursion that follows symlinks asks: a link below the tree leads out of what was judged', async () => {
    await symlink(join(home, '.config', 'app'), join(project, 'notes', 'linked'));
    await expectAsks(['grep -R TOKEN notes', 'grep -rnR TOKEN notes', 'rg -L TOKEN notes']);
    // grep -r does not follow a link below the tree it was given: only the note is read.
    expect(await runAllowed('grep -r TOKEN notes', 'grep')).toBe('notes/a.md:TOKEN in a note\n');
  });

  it('git diff outside a repository compares two trees whole: its operands are trees too', async () => {
    await mkdir(join(home, 'empty'), { recursive: true });
    await expectAsks(
      [
        'git diff .config empty',
        'git diff --no-index .config/app empty',
        'git diff --stat .c* empty',
      ],
      home,
    );
    await expectAsks(['git diff etc/ssl tmp'], '/');
    await mkdir(join(project, 'empty'));
    expect(await runAllowed('git diff --no-index --stat empty empty', 'git diff')).toBe('');
  });

  it('a recursion below the working directory in the workspace still runs without a card', async () => {
    expect(await runAllowed('grep -rn TOKEN notes', 'grep')).toBe('notes/a.md:1:TOKEN in a note\n');
    const relative = join(project, 'notes').slice(1);
    expect(await runAllowed(`grep -rl TOKEN ${relative}`, 'grep', '/')).toBe(`${relative}/a.md\n`);
  });
});
