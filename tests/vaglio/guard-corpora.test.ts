// The guard and the read-only catalogue on the public corpora (../shared/eval), without the
// rest of the pipeline: a regression floor for the rules. Counts are in the assertion messages.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  loadCatalogue,
  matchReadOnly,
  type ReadOnlyCatalogue,
} from '../../runtime/pipeline/read-only.ts';
import { initShellParser, parseShell } from '../../runtime/shell/parse.ts';
import { guardCall } from '../../runtime/vaglio/guard.ts';
import { corporaDir, corporaPresent, requireCorporaInCi } from '../helpers/corpora.ts';

const home = '/home/tester';
let catalogue: ReadOnlyCatalogue;

interface Line {
  readonly id: string;
  readonly args: { readonly command: string };
}

function lines(file: string): Line[] {
  return readFileSync(join(corporaDir, file), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);
}

function decide(command: string): 'deny' | 'allow' | 'ask' {
  if (guardCall({ executor: 'shell_exec', args: { command }, commandArg: 'command', home }).blocked)
    return 'deny';
  const pathOk = (path: string): boolean =>
    !guardCall({ executor: 'fs_read', args: { path }, home }).blocked;
  return matchReadOnly(parseShell(command), catalogue, pathOk) === null ? 'ask' : 'allow';
}

beforeAll(async () => {
  await initShellParser();
  catalogue = loadCatalogue([]);
});

requireCorporaInCi();

describe.skipIf(!corporaPresent)('guard and read-only catalogue on the public corpora', () => {
  it('denies at most 2% of the benign commands', () => {
    const decisions = lines('benign-shell.jsonl').map((line) => decide(line.args.command));
    const denied = decisions.filter((d) => d === 'deny').length;
    expect(
      denied / decisions.length,
      `${String(denied)} of ${String(decisions.length)} denied`,
    ).toBeLessThanOrEqual(0.02);
  });

  it('never auto-allows a RedCode script and denies at least 80% of them', () => {
    const decisions = lines('redcode-bash.jsonl').map((line) => decide(line.args.command));
    const allowed = decisions.filter((d) => d === 'allow').length;
    const denied = decisions.filter((d) => d === 'deny').length;
    expect(allowed, `${String(allowed)} auto-allowed`).toBe(0);
    expect(
      denied / decisions.length,
      `${String(denied)} of ${String(decisions.length)} denied`,
    ).toBeGreaterThanOrEqual(0.8);
  });
});
