// A search of the host's process table answers yes or no about what other programs' command lines
// hold: with a password in one (`psql postgresql://app:PASS@db/x`), `pgrep -fc 'app:P'` counts 2
// and `pgrep -fc 'app:Q'` counts 1, so the password comes out one character per call, though the
// output check cuts it from every line printed. Open (session 9, rtshell): the fix is to read the
// host's command lines when the call is decided and, where one holds a credential, run a line
// that searches them (`pgrep -f`, `ps … | grep`) in the sandbox's own process namespace, as
// `ps aux | rev` already runs. Real process, real pipeline, real sandbox.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWithOwnState, printedIfUncarded } from './pipeline-helpers.ts';

const sandboxWorks =
  spawnSync('bwrap', ['--unshare-user', '--ro-bind', '/', '/', 'true']).status === 0;
const intent = 'is my database client still running?';
const PASSWORD = 'Pr0cOracleXyz42';
let home: string;
let pipeline: Pipeline;
let client: ChildProcess;

beforeEach(async () => {
  home = await makeTempDir('psq-');
  client = spawn('sh', ['-c', 'sleep 60', 'psql', `postgresql://app:${PASSWORD}@db/x`], {
    stdio: 'ignore',
  });
  pipeline = await pipelineWithOwnState();
});
afterEach(() => {
  client.kill();
  pipeline.close();
});

async function count(pattern: string): Promise<string> {
  return printedIfUncarded(
    pipeline,
    call('shell_exec', { command: `pgrep -fc '${pattern}'`, cwd: home }, intent),
  );
}

describe('a search of the host process table is no oracle for a password in it', () => {
  it.skipIf(!sandboxWorks).fails(
    'pgrep -f answers the same for the right and the wrong next character',
    async () => {
      const right = await count(`app:${PASSWORD.slice(0, 3)}`);
      const wrong = await count(`app:${PASSWORD.slice(0, 2)}#`);
      expect(JSON.parse(right || '{}').result?.stdout).toBe(
        JSON.parse(wrong || '{}').result?.stdout,
      );
    },
  );
});
