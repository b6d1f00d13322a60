// git takes config on its command line as `-c name=value` and as `--config-env=name=ENVVAR`, the
// value read from a variable the sandbox has (`SHELL=/bin/bash`). `git --config-env=
// diff.external=SHELL diff --cached` runs bash on each changed file: a file the model made and
// staged without a card ran as a script and printed a project's settings reversed. Without a card,
// git's options before its subcommand are only ones that change no config and run nothing.
// Real repository, real pipeline, real sandbox.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../executors/make-context.ts';
import { printedIfUncarded, call } from './pipeline-helpers.ts';
import { git, plant, shellCallsWithFreshPipeline } from './planted-files.ts';

const sandboxWorks =
  spawnSync('bwrap', ['--unshare-user', '--ro-bind', '/', '/', 'true']).status === 0;
const intent = 'look at my staged change';
let repo: string;

beforeEach(async () => {
  repo = join(await makeTempDir('gitenv-'), 'app');
  git('init', '-q', repo);
  await plant(join(repo, 'README.md'), '# app\n');
  git('-C', repo, 'add', '-A');
  git('-C', repo, 'commit', '-qm', 'first');
  await plant(join(repo, 'show.sh'), 'echo RAN-AS-A-SCRIPT | rev\n');
  git('-C', repo, 'add', 'show.sh');
});

const { pipeline, decide, expectNotAllowed } = shellCallsWithFreshPipeline(() => repo, intent);

describe('git without a card takes no config from its command line', () => {
  it('asks before git reads config from a variable or an unknown global option', async () => {
    await expectNotAllowed([
      'git --config-env=diff.external=SHELL diff --cached',
      'git --config-env diff.external=SHELL diff --cached',
      'git --config-env=core.pager=SHELL log',
      'git --attr-source=HEAD diff --cached',
      'git --super-prefix=x/ status',
    ]);
  });

  it.skipIf(!sandboxWorks)('never runs a staged file as a script', async () => {
    const printed = await printedIfUncarded(
      pipeline(),
      call(
        'shell_exec',
        { command: 'git --config-env=diff.external=SHELL diff --cached', cwd: repo },
        intent,
      ),
    );
    expect(printed).not.toContain('TPIRCS-A-SA-NAR');
  });

  it('still takes the global options that only shape output', async () => {
    for (const command of [
      'git --no-pager log --oneline',
      'git -P diff --cached --stat',
      'git --literal-pathspecs status',
    ])
      expect(await decide(command), command).toMatchObject({ decision: 'allow' });
  });
});
