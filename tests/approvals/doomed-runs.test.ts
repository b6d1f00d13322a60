// A card whose run the sandbox dooms says so before Allow is pressed: a set-user/group-ID
// program (crontab on Debian: no privilege is ever gained under the sandbox's no_new_privs),
// and an install into a package manager's own prefix outside roots.write (pip of another
// user's pyenv, npm -g under /usr). Real programs on a real PATH, real pipeline decisions.
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgramLookup } from '../../executors/ops/program-lookup.ts';
import { createCardBuilder, type BuildCard } from '../../runtime/approvals/build-card.ts';
import { renderCardText } from '../../runtime/approvals/render.ts';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { call, pipelineWith } from '../pipeline/pipeline-helpers.ts';

const home = process.env.HOME ?? '';
let outside: string;
let pipeline: Pipeline;
let build: BuildCard;

async function program(path: string, mode = 0o755): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, '#!/bin/sh\nexit 0\n');
  await chmod(path, mode);
}

beforeAll(async () => {
  // Outside the HOME, as /usr or another user's ~/.pyenv is.
  outside = await realpath(await mkdtemp('/var/tmp/custode-doomed-'));
  await program(join(outside, 'bin/crontab'), 0o2755);
  await program(join(outside, 'pyenv/shims/pip'));
  await program(join(outside, 'usr/bin/node'));
  await program(join(outside, 'usr/bin/npm'));
  await program(join(home, 'venv-doomed/bin/pip3'));
  const searchPath = [
    join(outside, 'bin'),
    join(outside, 'pyenv/shims'),
    join(outside, 'usr/bin'),
    join(home, 'venv-doomed/bin'),
  ].join(':');
  pipeline = await pipelineWith();
  build = createCardBuilder({
    lookUpProgram: createProgramLookup(searchPath),
    writeRoots: [home, '/tmp'],
  });
});
afterAll(async () => {
  pipeline.close();
  await rm(outside, { recursive: true, force: true });
});

async function cardText(command: string): Promise<string> {
  const proposed = call('shell_exec', { command }, 'set it up');
  const outcome = await pipeline.evaluate(proposed);
  expect(outcome.decision, command).toBe('ask');
  return renderCardText(await build(proposed, outcome));
}

describe('a card whose run the sandbox dooms', () => {
  it('says a set-group-ID program will fail', async () => {
    const text = await cardText('(crontab -l; echo "0 2 * * * ~/backup.sh") | crontab -');
    expect(text).toContain('Will fail in the sandbox: crontab is set-group-ID');
  });

  it('says an install into a prefix outside roots.write will fail, and where it would go', async () => {
    expect(await cardText('pip install requests')).toContain(
      `Will fail in the sandbox: pip installs under ${join(outside, 'pyenv')}`,
    );
    expect(await cardText('npm install -g typescript')).toContain(
      `npm installs under ${join(outside, 'usr')}`,
    );
  });

  it('says a program that is not installed will fail, never a builtin or a function of the line', async () => {
    expect(await cardText('no-such-tool-xyz --all')).toContain(
      'Will fail: no-such-tool-xyz is not installed here',
    );
    for (const command of ['kill 1234', 'f() { kill 4321; }; f', 'cd /tmp && npm install lodash'])
      expect(await cardText(command), command).not.toContain('not installed');
  });

  it('says nothing when the install goes where the sandbox may write', async () => {
    for (const command of [
      'pip install --user requests',
      'pip3 install requests',
      'npm install lodash',
      'pip install -t vendor requests',
    ])
      expect(await cardText(command), command).not.toContain('Will fail');
  });
});
