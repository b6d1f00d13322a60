// A listing of the machine's processes runs without a card with the host's process table in
// view (`ps aux`, `pgrep -a`), and prints other programs' command lines: a password in one
// (`psql postgresql://app:PASS@db/x`) is cut from the output by shape. Piped through a filter
// that rewrites the text (`rev`, `fold`, `od`, `grep -o`, `head -c`), the same password comes out
// in a form no shape matches. So such a line may filter only with tools that keep each line
// whole. Real process, real pipeline, real sandbox.
import { spawnSync } from 'node:child_process';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../executors/make-context.ts';
import { call, printedIfUncarded } from './pipeline-helpers.ts';
import { passwordInACommandLine, shellCallsWithFreshPipeline } from './planted-files.ts';

const sandboxWorks =
  spawnSync('bwrap', ['--unshare-user', '--ro-bind', '/', '/', 'true']).status === 0;
const intent = 'is my database client still running?';
const PASSWORD = 'Pr0cArgPw4ssXyz';
const reversed = [...PASSWORD].reverse().join('');
let home: string;
beforeEach(async () => {
  home = await makeTempDir('ps-');
});
passwordInACommandLine(PASSWORD);
const { pipeline, decide } = shellCallsWithFreshPipeline(() => home, intent);

describe('a process listing without a card keeps every command line whole', () => {
  it('never shows the host processes to a line that rewrites the listing', async () => {
    for (const command of [
      'ps aux | rev',
      'ps -ef | grep psql | rev',
      'pgrep -af psql | fold -w 4',
      'ps -eo args | od -c',
      'ps aux | grep -o .',
      'ps aux | grep -Eo "[^:]+@"',
      'ps aux | grep --color=always psql',
      'ps aux | head -c 300',
      'ps -eo args | cut -c 20-40',
      'ps aux | tr a-z n-za-m',
    ]) {
      const outcome = await decide(command);
      // It asks, or runs in the sandbox's own process namespace, where it sees only itself.
      if (outcome.decision === 'allow')
        expect(outcome.grant, command).toMatchObject({ hostProcesses: false });
    }
  });

  it.skipIf(!sandboxWorks)('never prints the password reversed', async () => {
    const printed = await printedIfUncarded(
      pipeline(),
      call('shell_exec', { command: 'ps -ef | rev', cwd: home }, intent),
    );
    expect(printed).not.toContain(reversed);
  });

  // A listing that would keep the password cut still answers a search about it (grep psql:app:P
  // prints a line or none), so with such a process running it asks; with none it runs without a
  // card (uncarded-process-search-oracle.test.ts).
  it('asks to list or grep processes while one holds the password, saying why', async () => {
    for (const command of ['ps aux | grep psql', 'pgrep -af psql | head -n 5', 'ps -ef | wc -l'])
      expect(await decide(command), command).toMatchObject({
        decision: 'ask',
        reason: expect.stringContaining(
          "a program's command line on this machine holds a credential",
        ),
      });
  });
});
