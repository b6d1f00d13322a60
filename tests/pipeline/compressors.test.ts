// `gzip -k big.csv` makes big.csv.gz next to it and runs without a card; without -k the input
// goes as a move the new file keeps. An existing output, a link, a hidden or protected input ask.
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { exists } from '../helpers/exists.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

let base: string;
let pipeline: Pipeline;

beforeAll(async () => {
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
  base = await makeTempDir('compress-');
  await writeFile(join(base, 'big.csv'), 'id,value\n1,2\n');
  await writeFile(join(base, 'old.log'), 'started\n');
  await writeFile(join(base, 'done.csv'), 'a\n');
  await writeFile(join(base, 'done.csv.gz'), 'not mine to replace');
  await writeFile(join(base, '.env'), 'TOKEN=x\n');
  await mkdir(join(base, 'dotfiles'));
  await writeFile(join(base, 'dotfiles', '.netrc'), 'machine x login a password hunter2\n');
  await symlink(join(base, 'dotfiles', '.netrc'), join(base, 'netrc'));
});
afterAll(() => pipeline.close());

function decide(command: string): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command }, 'compress my files'));
}

async function run(command: string): Promise<void> {
  const outcome = await decide(command);
  expect(outcome, command).toMatchObject({ decision: 'allow' });
  expect(await pipeline.invoke(outcome, new AbortController().signal)).toMatchObject({
    ok: true,
    result: { exit_code: 0 },
  });
}

describe('compressing a file', () => {
  it('gzip -k keeps the input and makes FILE.gz, in a real run', async () => {
    await run(`gzip -k ${base}/big.csv && ls -l ${base}/big.csv*`);
    expect(await readFile(join(base, 'big.csv'), 'utf8')).toBe('id,value\n1,2\n');
    expect(await exists(join(base, 'big.csv.gz'))).toBe(true);
  });

  it('xz without -k replaces the input by FILE.xz, in a real run', async () => {
    await run(`cd ${base} && xz old.log`);
    expect(await exists(join(base, 'old.log'))).toBe(false);
    expect(await exists(join(base, 'old.log.xz'))).toBe(true);
  });

  it('asks for an existing output, a link, a hidden input, -f, -d, -c and -r', async () => {
    for (const command of [
      `gzip -k ${base}/done.csv`,
      `gzip -k ${base}/netrc`,
      `gzip -k ${base}/.env`,
      `gzip -f ${base}/done.csv`,
      `gzip -d ${base}/done.csv.gz`,
      `gzip -c ${base}/big.csv > ${base}/copy.gz`,
      `gzip -r ${base}/dotfiles`,
      `bzip2 -k ${base}/dotfiles/.netrc`,
    ]) {
      expect((await decide(command)).decision, command).not.toBe('allow');
    }
    expect(await readFile(join(base, 'done.csv.gz'), 'utf8')).toBe('not mine to replace');
  });
});
