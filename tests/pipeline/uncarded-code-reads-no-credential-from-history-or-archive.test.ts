// Code nobody reviewed (the read-only-code tier) runs without a card in a work tree whose files
// hold no credential now, but whose history does (a .env committed, then removed), or which holds
// a credential compressed (a backup .tgz, a .gz, a .zip of the .env): the check of the tree reads
// text, which cannot see into either, and the code can decompress them and print the secret in
// any form. Real pipeline, real bubblewrap: each run is decided on a harmless line and given the
// hostile one, so the sandbox alone is what stops it.
import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bwrapAvailable } from '../../executors/sandbox/bwrap.ts';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { call, projectAndPipeline } from './pipeline-helpers.ts';
import { git, plant } from './planted-files.ts';
import { hasProgram } from '../helpers/tools.ts';

const hasBwrap = await bwrapAvailable();
const KEY = `sk-proj-${'Q7w8E9r0T1'.repeat(4)}`;
const reversed = (text: string): string => [...text].reverse().join('');

let project: string;
let pipeline: Pipeline;

beforeEach(async () => {
  ({ project, pipeline } = await projectAndPipeline());
  await plant(join(project, 'app.py'), 'X = 1\n');
});
afterEach(() => pipeline.close());

/** Decide `print(1)`, which must run read-only without a card; run `code` under that grant. */
async function runUnderHarmlessGrant(code: string): Promise<string> {
  const outcome = await pipeline.evaluate(
    call('shell_exec', { command: `python3 -c "print(1)"`, cwd: project }, 'check the code'),
  );
  expect(outcome).toMatchObject({ decision: 'allow', grant: { tier: 'read-only-code' } });
  const result = await pipeline.invoke(
    { ...outcome, args: { command: `python3 -c "${code}"`, cwd: project } },
    new AbortController().signal,
  );
  expect(result).toMatchObject({ ok: true });
  const output = result.ok ? (result.result as Record<string, unknown>) : {};
  return `${String(output.stdout)}\n${String(output.stderr)}`;
}

function expectNoSecret(text: string): void {
  for (const form of [KEY, reversed(KEY), Buffer.from(KEY).toString('hex')])
    expect(text).not.toContain(form);
}

describe.skipIf(!hasBwrap)('code without a card where a credential is out of plain sight', () => {
  it('cannot read a credential committed once and removed since, out of the history', async () => {
    await plant(join(project, '.env'), `OPENAI_API_KEY=${KEY}\n`);
    git('-C', project, 'add', '-A');
    git('-C', project, 'commit', '-qm', 'one');
    git('-C', project, 'rm', '-q', '.env');
    git('-C', project, 'commit', '-qm', 'two');
    const walk = `
import os, zlib
for d, _, fs in os.walk('.git'):
    for f in fs:
        try: print(zlib.decompress(open(os.path.join(d, f), 'rb').read())[::-1])
        except Exception: pass
print('walked')
`;
    const output = await runUnderHarmlessGrant(walk);
    expectNoSecret(output);
    expect(output).toContain('walked');
  });

  it.skipIf(!hasProgram('zip', '-v'))(
    'cannot read a credential kept compressed in the tree: a .tgz, a .gz, a .zip',
    async () => {
      await plant(join(project, 'conf', 'settings.env'), `OPENAI_API_KEY=${KEY}\n`);
      execFileSync('tar', ['-czf', 'backup.tgz', 'conf'], { cwd: project });
      execFileSync('sh', ['-c', 'gzip -c conf/settings.env > settings.gz'], { cwd: project });
      execFileSync('zip', ['-q', 'backup.zip', 'conf/settings.env'], { cwd: project });
      await rm(join(project, 'conf'), { recursive: true });
      const read = `
import gzip, tarfile, zipfile
for name, get in [('backup.tgz', lambda: tarfile.open('backup.tgz').extractfile('conf/settings.env').read()),
                  ('settings.gz', lambda: gzip.open('settings.gz').read()),
                  ('backup.zip', lambda: zipfile.ZipFile('backup.zip').read('conf/settings.env'))]:
    try: print(name, get()[::-1])
    except Exception as e: print(name, type(e).__name__)
`;
      expectNoSecret(await runUnderHarmlessGrant(read));
    },
  );
});
