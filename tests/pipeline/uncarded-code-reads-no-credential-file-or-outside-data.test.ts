// Code nobody reviewed (the read-only-code tier) runs without a card in a work tree that holds
// credential files (an ignored .env, a key, a hard link to one): the sandbox shows it the tree with
// each of them hidden, and its history, and shows nothing of the person's files outside its view
// (/var/tmp here stands for /srv, /mnt, /data, other homes). Real pipeline, real bubblewrap:
// each run is decided on a harmless line and then given the hostile one, so the sandbox alone is
// what stops it. Planted secrets live in the test's own HOME under /var/tmp.
import { link, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bwrapAvailable } from '../../executors/sandbox/bwrap.ts';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { call, projectAndPipeline, runUnderGrant } from './pipeline-helpers.ts';
import { git, plant } from './planted-files.ts';

const hasBwrap = await bwrapAvailable();
const KEY = `sk-proj-${'Q7w8E9r0T1'.repeat(4)}`;
const OUTSIDE_SECRET = 'DJANGOSECRET9001';
const reversed = (text: string): string => [...text].reverse().join('');

let project: string;
let outside: string;
let pipeline: Pipeline;

beforeAll(async () => {
  ({ project, pipeline } = await projectAndPipeline());
  await plant(join(project, '.gitignore'), '.env\n.env.*\n');
  await plant(join(project, '.env'), `OPENAI_API_KEY=${KEY}\nDEBUG=1\n`);
  await plant(
    join(project, 'deploy', 'id_ed25519'),
    `-----BEGIN OPENSSH PRIVATE KEY-----\n${KEY}\n`,
  );
  await plant(join(project, 'pkg', 'a.py'), 'X = 1\n');
  await plant(join(project, 'pkg', 'b.py'), 'from pkg.a import X\n');
  await plant(join(project, 'src', 'x.js'), 'console.log("loaded");\n');
  await plant(join(project, 'fixtures', 'data.json'), '{"n": 42}\n');
  await symlink('.env', join(project, 'env-link'));
  await link(join(project, '.env'), join(project, 'notes.txt'));
  git('-C', project, 'add', '-A');
  git('-C', project, 'add', '-f', '.env');
  git('-C', project, 'commit', '-qm', 'one');
  outside = await mkdtemp('/var/tmp/view-outside-');
  await plant(join(outside, 'app', 'settings.py'), `SECRET_KEY = "${OUTSIDE_SECRET}"\n`);
});
afterAll(async () => {
  pipeline.close();
  await rm(outside, { recursive: true, force: true });
});

function decide(command: string): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command, cwd: project }, 'check the code'));
}

/** Decide `decided`, which must run read-only without a card; run `ran` under that grant. */
function runReadOnly(decided: string, ran = decided): Promise<Record<string, unknown>> {
  return runUnderGrant(
    pipeline,
    call('shell_exec', { command: decided, cwd: project }, 'check the code'),
    { grant: { tier: 'read-only-code', writable: [] } },
    { command: ran, cwd: project },
  );
}

function expectNoSecret(output: Record<string, unknown>): void {
  const text = `${String(output.stdout)}\n${String(output.stderr)}`;
  for (const secret of [KEY, OUTSIDE_SECRET])
    for (const form of [secret, reversed(secret), Buffer.from(secret).toString('hex')])
      expect(text).not.toContain(form);
}

/** Python that prints, reversed and hex, whatever each of its arguments names holds. */
const PRINT_ALL = `python3 -c "
import sys
for p in sys.argv[1:]:
    try: t = open(p, 'rb').read(); print(p, t[::-1], t.hex())
    except Exception as e: print(p, type(e).__name__)
"`;

describe.skipIf(!hasBwrap)('code without a card in a work tree with credential files', () => {
  it('runs the everyday checks without a card: py_compile, a node require, a fixture read', async () => {
    expect((await runReadOnly('python3 -m py_compile pkg/*.py && echo OK')).stdout).toBe('OK\n');
    expect((await runReadOnly(`node -e 'require("./src/x.js")'`)).stdout).toBe('loaded\n');
    const fixture = `python3 -c 'import json; print(json.load(open("fixtures/data.json"))["n"])'`;
    expect((await runReadOnly(fixture)).stdout).toBe('42\n');
  });

  it('cannot read a credential file by any path: its name, a link, a hard link, ../, /proc/self/root', async () => {
    const paths = [
      '.env',
      'env-link',
      'notes.txt',
      'pkg/../.env',
      `${project}/.env`,
      `/proc/self/root${project}/.env`,
      `/proc/self/cwd/.env`,
      'deploy/id_ed25519',
    ];
    const output = await runReadOnly(`python3 -c "print(1)"`, `${PRINT_ALL} ${paths.join(' ')}`);
    expectNoSecret(output);
    expect(String(output.stdout)).toContain('.env');
  });

  it('cannot reach it through a link or a copy it makes in its own /tmp', async () => {
    const code = `python3 -c "
import os, shutil
os.symlink('${project}/.env', '/tmp/l')
print(open('/tmp/l').read()[::-1])
try: os.link('${project}/.env', '/tmp/h'); print(open('/tmp/h').read()[::-1])
except Exception as e: print(type(e).__name__)
try: shutil.copy('${project}/.env', '/tmp/c'); print(open('/tmp/c').read()[::-1])
except Exception as e: print(type(e).__name__)
"`;
    expectNoSecret(await runReadOnly(`python3 -c "print(1)"`, code));
  });

  it('cannot read the committed credential out of the history', async () => {
    const code = `python3 -c "
import os, zlib
for d, _, fs in os.walk('.git'):
    for f in fs:
        try: print(zlib.decompress(open(os.path.join(d, f), 'rb').read())[::-1])
        except Exception: pass
print('walked')
"`;
    const output = await runReadOnly(`python3 -c "print(1)"`, code);
    expectNoSecret(output);
    expect(output.stdout).toBe('walked\n');
  });

  it('cannot read a credential file that was there before the run but after the decision', async () => {
    const outcome = await decide(`python3 -c "print(1)"`);
    await writeFile(join(project, '.env.local'), `OPENAI_API_KEY=${KEY}\n`);
    const result = await pipeline.invoke(
      { ...outcome, args: { command: `${PRINT_ALL} .env.local`, cwd: project } },
      new AbortController().signal,
    );
    await rm(join(project, '.env.local'));
    expect(result).toMatchObject({ ok: true });
    expectNoSecret(result.ok ? (result.result as Record<string, unknown>) : {});
  });

  it('sees none of the person files outside its view, by a path it builds', async () => {
    const built = `node -e "const fs = require('fs'); const p = '${outside.slice(0, 12)}' + '${outside.slice(12)}/app'; try { for (const f of fs.readdirSync(p)) console.log([...fs.readFileSync(p + '/' + f, 'utf8')].reverse().join('')) } catch (e) { console.log(e.code) }"`;
    const output = await runReadOnly(`node -e 1`, built);
    expectNoSecret(output);
    expect(output.stdout).toBe('ENOENT\n');
    const listing = await runReadOnly(
      `python3 -c "print(1)"`,
      `python3 -c "import os; print([d for d in ['/srv', '/mnt', '/media', '/home', '/var/lib', '${outside}'] if os.path.exists(d) and os.listdir(d)])"`,
    );
    expect(listing.stdout).toBe('[]\n');
  });

  it('still asks where the tree holds a protected place no mask is for', async () => {
    const dotfiles = join(project, 'dotfiles-view');
    await plant(join(dotfiles, '.netrc'), 'machine x password hunter2\n');
    expect((await decide(`python3 -c "print(1)"`)).decision).not.toBe('allow');
    await rm(dotfiles, { recursive: true });
  });
});
