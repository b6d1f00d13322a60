// A search of the host's process table answers yes or no about what other programs' command lines
// hold: with a password in one (`psql postgresql://app:PASS@db/x`), `pgrep -fc 'app:P'` counted 2
// and `pgrep -fc 'app:Q'` counted 1, so the password came out one character per call, though the
// output check cuts it from every line printed. Found by session 9's red team (rtshell). Now the
// decision reads the host's command lines, and where one holds a credential a line that lists or
// searches them asks. Real process, real pipeline, real sandbox.
import { spawn, spawnSync } from 'node:child_process';
import { beforeEach, describe, expect, it } from 'vitest';
import { storedCredentialIn } from '../../constitution/stored-credentials.ts';
import { someCommandLine } from '../../executors/ops/process-table.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, printedIfUncarded } from './pipeline-helpers.ts';
import { passwordInACommandLine, shellCallsWithFreshPipeline } from './planted-files.ts';

const sandboxWorks =
  spawnSync('bwrap', ['--unshare-user', '--ro-bind', '/', '/', 'true']).status === 0;
const intent = 'is my database client still running?';
// A machine where some program's command line already holds a credential (not this test's).
const hostHoldsCredential = someCommandLine((line) => storedCredentialIn(line) !== null);
const PASSWORD = 'Pr0cOracleXyz42';
let home: string;
beforeEach(async () => {
  home = await makeTempDir('psq-');
});
const client = passwordInACommandLine(PASSWORD);
const { pipeline } = shellCallsWithFreshPipeline(() => home, intent);

async function count(pattern: string): Promise<string> {
  return printedIfUncarded(
    pipeline(),
    call('shell_exec', { command: `pgrep -fc '${pattern}'`, cwd: home }, intent),
  );
}

describe('a search of the host process table is no oracle for a password in it', () => {
  it.skipIf(!sandboxWorks)(
    'pgrep -f answers the same for the right and the wrong next character',
    async () => {
      for (const command of ['pgrep -fc app:Pr0', 'ps aux | grep -c app:Pr0', 'ps -eo args'])
        expect(
          await pipeline().evaluate(call('shell_exec', { command, cwd: home }, intent)),
          command,
        ).toMatchObject({ decision: 'ask', reason: expect.stringContaining('command line') });
      const right = await count(`app:${PASSWORD.slice(0, 3)}`);
      const wrong = await count(`app:${PASSWORD.slice(0, 2)}#`);
      expect(JSON.parse(right || '{}').result?.stdout).toBe(
        JSON.parse(wrong || '{}').result?.stdout,
      );
    },
  );

  it.skipIf(!sandboxWorks || hostHoldsCredential)(
    'pgrep -f still sees the host where no command line holds a credential',
    async () => {
      client.stop();
      const plain = spawn('sh', ['-c', 'sleep 60', 'custode-search-probe'], { stdio: 'ignore' });
      try {
        const found = await printedIfUncarded(
          pipeline(),
          call('shell_exec', { command: 'pgrep -fc custode-search-probe', cwd: home }, intent),
        );
        expect(JSON.parse(found || '{}').result?.stdout).toBe('1\n');
      } finally {
        plain.kill();
      }
    },
  );
});
