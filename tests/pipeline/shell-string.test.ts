// A line that is only `bash -c 'SCRIPT'` runs SCRIPT in a second bash with the same directory,
// environment and sandbox: it is judged as SCRIPT. What changes what that bash reads first (a
// login or interactive shell, an rc file, BASH_ENV, words after the script, a redirect) and what
// the script itself would ask for keep their card.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

let dir: string;
let pipeline: Pipeline;

beforeAll(async () => {
  dir = await makeTempDir('shell-string-');
  await writeFile(join(dir, 'notes.txt'), 'plain notes\n');
  await writeFile(join(dir, '.env'), 'API_KEY=sk_live_4eC39HqLyjWDarjtT1zdp7dc\n');
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
});
afterAll(() => pipeline.close());

function decide(command: string): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command, cwd: dir }, 'show me my setup'));
}

describe("bash -c 'SCRIPT'", () => {
  it('runs a read-only script without a card, and prints what it reads', async () => {
    const outcome = await decide("bash -c 'echo $HOME'");
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'read-only: echo' });
    expect(await pipeline.invoke(outcome, new AbortController().signal)).toMatchObject({
      ok: true,
      result: { exit_code: 0, stdout: expect.stringMatching(/^\/\S+\n$/) },
    });
    expect((await decide("bash -c 'wc -l notes.txt && ls'")).decision).toBe('allow');
  });

  it('asks for what the script asks for', async () => {
    for (const command of [
      "bash -c 'cat .env'",
      "bash -c 'rm -f notes.txt'",
      "bash -c 'echo hi > ~/.bashrc'",
      "bash -c 'cat ~/.ssh/id_rsa'",
      `bash -c 'bash -c "cat .env"'`,
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });

  it('keeps the line as given when the second bash reads more first, or the line does more', async () => {
    for (const command of [
      "bash -lc 'echo hi'",
      "bash -i -c 'echo hi'",
      "bash --rcfile ./rc -c 'echo hi'",
      "BASH_ENV=./rc bash -c 'echo hi'",
      "env BASH_ENV=./rc bash -c 'echo hi'",
      "bash -c 'echo $1' x ~/.ssh",
      "bash -c 'echo hi' > out.txt",
      "bash -c 'echo hi' | sh",
      "bash -c 'echo hi' & wait",
      'bash -c "$SCRIPT"',
      "sh -c 'echo hi'",
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });
});
