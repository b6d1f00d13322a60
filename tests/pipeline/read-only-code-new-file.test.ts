// Code nobody reviewed whose output is saved as one new file (`python3 -c '…' > ~/Documents/
// budget.json`) runs without a card with that file alone writable: the code may fill it and
// touch nothing else. Real pipeline, real files, real bubblewrap; runs are decided on a harmless
// line and given a hostile one, so the sandbox alone is tested, and names are planted between the
// decision and the run.
import { spawnSync, execFileSync } from 'node:child_process';
import { link, mkdir, readFile, rename, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { exists } from '../helpers/exists.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, projectAndPipeline } from './pipeline-helpers.ts';

const sandboxWorks =
  spawnSync('bwrap', ['--unshare-user', '--ro-bind', '/', '/', 'true']).status === 0;
const home = process.env.HOME ?? '';
const SECRET = 'PLANTED-SECRET-DO-NOT-TOUCH\n';
let project: string;
let pipeline: Pipeline;

beforeEach(async () => {
  ({ project, pipeline } = await projectAndPipeline({
    roots: { write: ['~', '/tmp'] },
    sandbox: { uncarded_max_file_bytes: 64 * 1024 },
  }));
  await writeFile(join(project, 'budget.csv'), 'item,amount\nrent,900\nfood,300\n');
  await writeFile(join(project, 'notes.txt'), 'keep me\n');
});
afterEach(() => {
  pipeline.close();
});

function decide(command: string, cwd = project): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command, cwd }));
}

/** Run `ran` under the grant `decided` got, which must name `file` as its one new file. */
async function runSaving(decided: string, file: string, ran = decided, cwd = project) {
  const outcome = await decide(decided, cwd);
  expect(outcome, decided).toMatchObject({
    decision: 'allow',
    reason: expect.stringContaining(`its output to the new file ${file} (unreviewed)`),
    grant: { tier: 'read-only-code', newFile: file, writable: [file], records: [file] },
  });
  return pipeline.invoke({ ...outcome, args: { command: ran, cwd } }, new AbortController().signal);
}

/** True when the line runs without a card. */
async function uncarded(command: string, cwd = project): Promise<boolean> {
  return (await decide(command, cwd)).decision === 'allow';
}

const TO_JSON = `python3 -c 'import csv, json, sys; print(json.dumps(list(csv.DictReader(open(sys.argv[1]))), indent=2))' budget.csv`;

describe.skipIf(!sandboxWorks)(
  'read-only code saving its output as a new file (needs bwrap)',
  () => {
    it('makes the json version of a csv next to it, and records it as unreviewed', async () => {
      const docs = join(home, 'Documents');
      await mkdir(docs, { recursive: true });
      await writeFile(join(docs, 'budget.csv'), 'item,amount\nrent,900\n');
      const file = join(docs, 'budget.json');
      const line = `python3 -c 'import csv, json, os; rows = list(csv.DictReader(open(os.path.expanduser("~/Documents/budget.csv")))); print(json.dumps(rows, indent=2))' > ~/Documents/budget.json`;
      const result = await runSaving(line, file, line, home);
      expect(result).toMatchObject({ ok: true, result: { exit_code: 0 } });
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual([{ item: 'rent', amount: '900' }]);
      // Project code now asks: the new file is unreviewed.
      await writeFile(join(project, 'Makefile'), 'all:\n\ttrue\n');
      expect(await decide('make')).toMatchObject({
        reason: expect.stringContaining('budget.json'),
      });
    });

    it('lets the code write nothing but its new file: neighbours, the work tree and the home stay', async () => {
      const file = join(project, 'out.json');
      const hostile = `echo saved; echo x > ${project}/pwned; echo y >> ${project}/notes.txt; echo z > ${home}/pwned; rm -f ${project}/budget.csv`;
      const result = await runSaving(`${TO_JSON} > out.json`, file, `{ ${hostile}; } > out.json`);
      expect(result).toMatchObject({ ok: true });
      expect(await readFile(file, 'utf8')).toBe('saved\n');
      expect(await exists(join(project, 'pwned'))).toBe(false);
      expect(await exists(join(home, 'pwned'))).toBe(false);
      expect(await readFile(join(project, 'notes.txt'), 'utf8')).toBe('keep me\n');
      expect(await exists(join(project, 'budget.csv'))).toBe(true);
    });

    it('holds code that reopens its file to the size limit for calls without a card', async () => {
      const file = join(project, 'big.txt');
      const fill = `python3 -c "f = open('${file}', 'a'); [f.write('x' * 65536) for _ in range(64)]" > big.txt`;
      const result = await runSaving(`python3 -c 'print(1)' > big.txt`, file, fill);
      expect(result).toMatchObject({ ok: true });
      expect((await stat(file)).size).toBeLessThanOrEqual(64 * 1024);
    });

    it('writes the file where its directory is also shown to the code (the work tree)', async () => {
      const file = join(project, 'data', 'out.json');
      await mkdir(join(project, 'data'));
      const result = await runSaving(`${TO_JSON} >> data/out.json`, file);
      expect(result).toMatchObject({ ok: true, result: { exit_code: 0 } });
      expect(await readFile(file, 'utf8')).toContain('"rent"');
    });

    it('takes away the empty file a failed run left, so the corrected line can make it', async () => {
      const file = join(project, 'out.json');
      const result = await runSaving(`python3 -c 'import sys; sys.exit(3)' > out.json`, file);
      expect(result).toMatchObject({ ok: true, result: { exit_code: 3 } });
      expect(await exists(file)).toBe(false);
      expect(await uncarded(`${TO_JSON} > out.json`)).toBe(true);
    });
  },
);

describe.skipIf(!sandboxWorks)(
  'a name planted between the decision and the run (needs bwrap)',
  () => {
    async function plantedThenRun(plant: (file: string) => Promise<void>) {
      const file = join(project, 'out.json');
      const outcome = await decide(`${TO_JSON} > out.json`);
      expect(outcome).toMatchObject({ decision: 'allow', grant: { newFile: file } });
      await plant(file);
      return pipeline.invoke(outcome, new AbortController().signal);
    }

    it('refuses a symbolic link to a secret, and leaves the secret as it was', async () => {
      const secret = join(home, 'secret.txt');
      await writeFile(secret, SECRET);
      const result = await plantedThenRun((file) => symlink(secret, file));
      expect(result).toMatchObject({
        ok: false,
        error: { message: expect.stringMatching(/has appeared/) },
      });
      expect(await readFile(secret, 'utf8')).toBe(SECRET);
    });

    it('refuses a hard link to a file, and leaves it as it was', async () => {
      const other = join(project, 'notes.txt');
      const result = await plantedThenRun((file) => link(other, file));
      expect(result).toMatchObject({ ok: false });
      expect(await readFile(other, 'utf8')).toBe('keep me\n');
    });

    it('refuses a FIFO', async () => {
      const result = await plantedThenRun(async (file) => {
        execFileSync('mkfifo', [file]);
      });
      expect(result).toMatchObject({ ok: false });
    });

    it('refuses when its directory was swapped for a link elsewhere, and makes nothing there', async () => {
      const sub = join(project, 'sub');
      await mkdir(sub);
      const elsewhere = await makeTempDir('elsewhere-');
      const outcome = await decide(`${TO_JSON} > sub/out.json`);
      expect(outcome).toMatchObject({
        decision: 'allow',
        grant: { newFile: join(sub, 'out.json') },
      });
      await rename(sub, join(project, 'sub-old'));
      await symlink(elsewhere, sub);
      const result = await pipeline.invoke(outcome, new AbortController().signal);
      expect(result).toMatchObject({ ok: false });
      expect(await exists(join(elsewhere, 'out.json'))).toBe(false);
    });
  },
);

describe('what still asks', () => {
  it('asks where the output goes to a file that exists, a link, a FIFO or a directory that does not exist', async () => {
    await symlink(join(home, 'nowhere'), join(project, 'dangling.json'));
    execFileSync('mkfifo', [join(project, 'fifo')]);
    await mkdir(join(project, 'real'));
    await symlink(join(project, 'real'), join(project, 'linked'));
    for (const target of [
      'notes.txt',
      'dangling.json',
      'fifo',
      'missing/out.json',
      'linked/out.json',
    ])
      expect(await uncarded(`${TO_JSON} > ${target}`), target).toBe(false);
  });

  it('asks for two files, a tee, or a pattern as the name', async () => {
    for (const line of [
      `${TO_JSON} > a.json 2> b.txt`,
      `${TO_JSON} > a.json; python3 -c 'print(2)' > b.json`,
      `${TO_JSON} | tee a.json`,
      `${TO_JSON} > a.json | tee b.json`,
      `${TO_JSON} > out-*.json`,
    ])
      expect(await uncarded(line), line).toBe(false);
  });

  it('asks for code that says it writes, and for code read from a here-document', async () => {
    for (const line of [
      `python3 -c "open('x', 'w').write('y')" > out.txt`,
      `python3 - > out.txt <<'EOF'\nprint(1)\nEOF`,
    ])
      expect(await uncarded(line), line).toBe(false);
  });

  it('makes a new file without a card exactly where the workspace tier would make one', async () => {
    await mkdir(join(project, 'scripts'));
    const names = ['.envrc', '.git/out.txt', 'Makefile', 'scripts/run.sh', 'plain.json'];
    for (const name of names)
      expect(await uncarded(`python3 -c 'print(1)' > ${name}`), name).toBe(
        await uncarded(`sort budget.csv > ${name}`),
      );
    expect(await uncarded(`python3 -c 'print(1)' > ~/.bashrc`, home)).toBe(false);
    expect(await uncarded(`python3 -c 'print(1)' > plain.json`)).toBe(true);
  });

  it('reads `1>`, `&>`, `>>`, `>|` and `> … 2>&1` to a new file as the same one new file', async () => {
    for (const redirect of [
      '1> out.json',
      '&> out.json',
      '>> out.json',
      '>| out.json',
      '> out.json 2>&1',
    ])
      expect(await decide(`${TO_JSON} ${redirect}`), redirect).toMatchObject({
        decision: 'allow',
        grant: { newFile: join(project, 'out.json') },
      });
  });

  it('runs a pipeline whose last command saves the output, with that file alone writable', async () => {
    const outcome = await decide(`${TO_JSON} | jq -c . > out.json`);
    expect(outcome).toMatchObject({
      decision: 'allow',
      grant: { newFile: join(project, 'out.json'), writable: [join(project, 'out.json')] },
    });
  });
});
