// A credential a project once committed comes back as a line of a patch or a search hit, with a
// mark before it: `+SECRET_KEY = "…"` in `git log -p`, `-ghp_…` where a diff removes it,
// `settings.py:SECRET_KEY = …` from `git grep`. What a call without a card prints is cut of
// credentials (executors/shown-text.ts), so these must be known under their marks too (a history
// past what a decision reads is left to that cut). A history the decision reads whole and finds a
// credential in asks before git prints it: the cut knows shapes, `| rev` prints another
// (tests/pipeline/uncarded-git-history-keeps-its-credentials.test.ts).
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutCredentials } from '../../constitution/stored-credentials.ts';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const djangoKey = 'dj4ngo-PLANTED-k3y-9x8y7z6w5v';
const token = `ghp_${'PLANTEDhistory0123456789abcdefghijkl'.slice(0, 36)}`;
const mailPassword = 'PLANTEDm4ilpw';
let pipeline: Pipeline;
let project: string;

function git(...args: string[]): void {
  execFileSync('git', ['-C', project, '-c', 'user.email=a@b', '-c', 'user.name=a', ...args]);
}

beforeAll(async () => {
  project = await makeTempDir('history-');
  execFileSync('git', ['init', '-q', project]);
  await mkdir(join(project, 'conf'));
  await writeFile(join(project, 'settings.py'), `SECRET_KEY = "${djangoKey}"\n`);
  await writeFile(join(project, 'token.txt'), `${token}\n`);
  await writeFile(join(project, 'conf', 'msmtprc'), `account x\npassword ${mailPassword}\n`);
  git('add', '-A');
  git('commit', '-qm', 'keys');
  // The keys leave the tree; the history keeps them, and diffs show them as removed lines.
  await writeFile(join(project, 'settings.py'), 'SECRET_KEY = os.environ["SECRET_KEY"]\n');
  await writeFile(join(project, 'token.txt'), 'in the vault now\n');
  await writeFile(join(project, 'conf', 'msmtprc'), 'account x\npasswordeval pass mail\n');
  git('commit', '-qam', 'no keys');
  pipeline = await pipelineWith({ roots: { write: ['~'] } });
});
afterAll(() => pipeline.close());

/** What git prints for `command` (git's words after `git`), as the cut leaves it. */
function printed(command: string): string {
  const words = command.split(' ').slice(1);
  return withoutCredentials(execFileSync('git', ['-C', project, ...words], { encoding: 'utf8' }));
}

describe('a committed credential printed without a card, as a diff or search line', () => {
  it.each([
    'git log -p',
    'git show HEAD~1',
    'git diff HEAD~1 HEAD',
    'git log -p --reverse -- settings.py token.txt conf',
    'git grep -n -e SECRET -e ghp_ -e password HEAD~1',
  ])('%s shows none of the keys', async (command) => {
    const outcome = await pipeline.evaluate(
      call('shell_exec', { command, cwd: project }, 'look at the history'),
    );
    expect(outcome.decision).toBe('ask');
    const shown = printed(command);
    expect(shown).not.toContain(djangoKey);
    expect(shown).not.toContain(token);
    expect(shown).not.toContain(mailPassword);
  });

  it('still shows the ordinary lines of the same history', async () => {
    const shown = printed('git log -p');
    expect(shown).toContain('os.environ');
    expect(shown).toContain('in the vault now');
  });
});
