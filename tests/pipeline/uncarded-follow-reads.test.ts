// A read that follows a file (`tail -f`, `tail -F`, `--follow`, `--retry`) prints what is written
// to it after the decision judged it, or a file that did not exist then: a dev server's log that
// later gets an `Authorization: Bearer …` line. The output check cuts a token only in its own
// shape, and `| rev` prints it in another. So a follow reads with a card; a plain `tail -n 50
// app.log` still runs without one. Real files, real pipeline, real sandbox.
import { spawnSync } from 'node:child_process';
import { appendFile } from 'node:fs/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../executors/make-context.ts';
import { call } from './pipeline-helpers.ts';
import { plant, shellCallsWithFreshPipeline } from './planted-files.ts';

const sandboxWorks =
  spawnSync('bwrap', ['--unshare-user', '--ro-bind', '/', '/', 'true']).status === 0;
const intent = 'watch my app log';
const TOKEN = 'ghp_F0ll0wT0kenAbCdEfGhIjKlMnOpQrStUv1234';
const reversed = [...TOKEN].reverse().join('');
let home: string;

beforeEach(async () => {
  home = await makeTempDir('follow-');
  await plant(`${home}/app.log`, '2026-11-26 INFO started\n');
});

const { pipeline, decide, expectNotAllowed } = shellCallsWithFreshPipeline(() => home, intent);

describe('a read that follows a file does not run without a card', () => {
  it('asks before following a file, in any spelling', async () => {
    await expectNotAllowed([
      'tail -f app.log | rev',
      'tail -F later.log | head -n 1 | rev',
      'tail -n0 -f app.log',
      'tail -fn 0 app.log | od -c',
      'tail --follow=name app.log',
      'tail --fol app.log | rev',
      'tail --retry -F later.log',
      'timeout 5 tail -F later.log | rev',
    ]);
  });

  it.skipIf(!sandboxWorks)('never shows a token written after the decision', async () => {
    const outcome = await pipeline().evaluate(
      call(
        'shell_exec',
        { command: 'tail -F later.log | head -n 1 | rev', cwd: home, timeout_ms: 4000 },
        intent,
      ),
    );
    if (outcome.decision !== 'allow') return;
    const writer = new Promise<void>((resolve) =>
      setTimeout(() => {
        void appendFile(`${home}/later.log`, `DEBUG Authorization: Bearer ${TOKEN}\n`).then(
          resolve,
        );
      }, 1000),
    );
    const ran = await pipeline().invoke(outcome, new AbortController().signal);
    await writer;
    expect(JSON.stringify(ran)).not.toContain(reversed);
  });

  it('still reads the end of a log without a card', async () => {
    for (const command of ['tail -n 50 app.log', 'tail -n 5 app.log | rev', 'tail -c 100 app.log'])
      expect(await decide(command), command).toMatchObject({
        decision: 'allow',
        grant: { tier: 'read-only' },
      });
  });
});
