// GNU programs take any unambiguous prefix of a long option: `date --fil=.env` is `date
// --file=.env`, which prints each line of the file in its "invalid date" error. The catalogue
// knows `--file` reads a path; spelled short, it read nothing, and the line printed the key
// without a card. A long option is read as the program reads it. Real files, real sandbox.
import { spawnSync } from 'node:child_process';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../executors/make-context.ts';
import { call, printedIfUncarded } from './pipeline-helpers.ts';
import { plant, shellCallsWithFreshPipeline } from './planted-files.ts';

const sandboxWorks =
  spawnSync('bwrap', ['--unshare-user', '--ro-bind', '/', '/', 'true']).status === 0;
const intent = 'what day is it?';
const KEY = 'sk-proj-Abbrev1atedOpt1onKey0123456789abcd';
let home: string;

beforeEach(async () => {
  home = await makeTempDir('abbrev-');
  await plant(`${home}/app/.env`, `OPENAI_API_KEY=${KEY}\n`);
  await plant(`${home}/notes/dates.txt`, '2026-11-26\n');
});

const { pipeline, decide, expectNotAllowed } = shellCallsWithFreshPipeline(() => home, intent);

describe('a long option written as a prefix is read as the option it stands for', () => {
  it('asks when the prefix names an option that reads a credential file', async () => {
    await expectNotAllowed([
      'date --file=app/.env',
      'date --fil=app/.env',
      'date --fi=app/.env',
      'date --fi app/.env',
      'date --refer=app/.env',
    ]);
  });

  it.skipIf(!sandboxWorks)(
    'never prints the key, reversed, through the short spelling',
    async () => {
      const printed = await printedIfUncarded(
        pipeline(),
        call('shell_exec', { command: 'date --fil=app/.env 2>&1 | rev', cwd: home }, intent),
      );
      expect(printed).not.toContain([...'Abbrev1atedOpt1on'].reverse().join(''));
    },
  );

  it('still runs a prefix of a harmless option, and the full names, without a card', async () => {
    for (const command of [
      'date --fil=notes/dates.txt',
      'tail --lin=1 notes/dates.txt',
      'ls --almost notes',
      'date --iso-8601=seconds',
    ])
      expect(await decide(command), command).toMatchObject({ decision: 'allow' });
  });
});
