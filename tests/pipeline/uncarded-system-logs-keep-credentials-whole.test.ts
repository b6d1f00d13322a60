// The system's logs (`journalctl`, `dmesg`) run without a card: the sandbox shows the journal as
// the user may read it. A service that logged a credential (`Authorization: Bearer …`, a
// connection URL with its password) puts text in them that no decision read before the line ran;
// the output check cuts it by its shape, line by line. Piped through a filter that rewrites the
// text (`rev`, `fold`, `od`, `grep -o`, `head -c`) or into code, the same credential comes out in
// a form no shape matches. So such a line may filter only with tools that keep each line whole,
// as a listing of other programs' command lines already does (one rule: unread-text.ts).
import { afterEach, beforeEach, describe, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { pipelineWithOwnState } from './pipeline-helpers.ts';
import { shellCalls } from './planted-files.ts';

let home: string;
let pipeline: Pipeline;

beforeEach(async () => {
  home = await makeTempDir('logs-');
  pipeline = await pipelineWithOwnState();
});
afterEach(() => pipeline.close());

const { expectDecisions, expectNotAllowed } = shellCalls(
  () => pipeline,
  () => home,
  'why did the backup fail last night?',
);

describe('the system logs without a card keep every line whole', () => {
  it('never runs a line that prints the logs in another form', async () => {
    await expectNotAllowed([
      'journalctl | rev',
      'dmesg | rev',
      'journalctl -b --no-pager | fold -w 4',
      'journalctl -u backup.service | od -c',
      'dmesg -T | grep -o .',
      'journalctl -p err | grep --color=always token',
      'journalctl -n 100 | head -c 500',
      'journalctl -o cat | cut -c 10-40',
      'journalctl -o cat | tr a-z n-za-m',
      'journalctl -b | python3 -c "import sys; print(sys.stdin.read()[::-1])"',
      'echo "$(journalctl -n 5)" | rev',
      'journalctl -n 5 > /dev/null; dmesg | xxd',
    ]);
  });

  it('never follows the logs: what they print later is text no decision read', async () => {
    await expectNotAllowed([
      'journalctl -f',
      'journalctl -fu ssh',
      'journalctl -b -n 5 --follow',
      'journalctl --fol',
      'timeout 5 journalctl -f | grep -i token',
      'dmesg -w',
      'dmesg -Tw',
      'dmesg -W',
      'dmesg --follow',
      'dmesg --follow-new | tail -5',
    ]);
  });

  it('still reads and searches the logs without a card', async () => {
    await expectDecisions('allow', [
      'journalctl -p err -b --no-pager -n 30',
      'journalctl --user -u backup.service --since today | grep -i fail | tail -n 20',
      'dmesg --level=err,warn -T | tail -20',
      'journalctl -b | sort | uniq -c | sort -rn | head',
      'journalctl -b | wc -l',
    ]);
  });
});
