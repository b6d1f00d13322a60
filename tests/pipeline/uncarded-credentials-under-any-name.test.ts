// Credentials that no protected name covers, read without a card: a key or token kept under an
// ordinary name inside a tree that is read whole (and printed reversed, one character a line,
// or in hex, so no output filter can see it), and the logins of tools the list did not name
// (Kaggle, Hugging Face, aerc, msmtp, irssi). Driven through the real pipeline; every line it
// allows runs for real in the sandbox, in a home of planted fake secrets.
import { link, mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import {
  call,
  pipelineWith,
  printedIfUncarded as printedIfUncardedBy,
} from './pipeline-helpers.ts';
import { plant } from './planted-files.ts';

const intent = 'help me with my files';
const KEY_LINE = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW';
const TOKEN = 'ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
let home: string;
let pipeline: Pipeline;

beforeEach(async () => {
  home = await makeTempDir('any-name-');
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
});
afterEach(() => {
  pipeline.close();
});

function decide(executor: string, args: object): Promise<PipelineOutcome> {
  return pipeline.evaluate(call(executor, args, intent));
}

/** What the call printed when a tier allowed it ('' when it needed a card). */
function printedIfUncarded(executor: string, args: object): Promise<string> {
  return printedIfUncardedBy(pipeline, call(executor, args, intent));
}

/** Every way a secret can come out: as written, reversed, one character a line, in hex. */
function expectNoTrace(printed: string, secret: string, what: string): void {
  const squeezed = printed.replace(/\\n|\s/g, '');
  for (const form of [
    secret,
    [...secret].reverse().join(''),
    Buffer.from(secret).toString('hex').slice(0, 24),
  ])
    expect(squeezed, what).not.toContain(form);
}

describe('a credential under an ordinary name inside a tree read whole', () => {
  beforeEach(async () => {
    await plant(
      join(home, 'notes', 'mykey'),
      `-----BEGIN OPENSSH PRIVATE KEY-----\n${KEY_LINE}\n-----END OPENSSH PRIVATE KEY-----\n`,
    );
    await plant(join(home, 'notes', 'todo.md'), '# todo\n');
    await plant(join(home, 'journal', 'monday.txt'), `set up the API with ${TOKEN}\n`);
    await plant(join(home, 'plain', 'a.md'), '# plan\n');
    await plant(join(home, 'plain', 'b.txt'), 'groceries\n');
  });

  it('is not printed, however the line encodes what the walk read', async () => {
    for (const command of [
      'grep -rh . notes | rev',
      'grep -rh . journal | rev',
      'grep -rho . journal',
      'grep -r . notes | od -c',
      'grep -r . journal | xxd',
      'find journal -type f -exec cat {} +',
      'diff -r notes plain',
      'grep -r --color=always gh journal',
    ]) {
      const args = { command, cwd: home };
      expect((await decide('shell_exec', args)).decision, command).not.toBe('allow');
      const printed = await printedIfUncarded('shell_exec', args);
      expectNoTrace(printed, KEY_LINE, command);
      expectNoTrace(printed, TOKEN, command);
    }
  });

  it('is withheld from fs_grep, whatever shape it has', async () => {
    await plant(join(home, 'mail', 'accounts.conf'), 'source = imaps://ada:Hunter2Mail@imap.x\n');
    for (const dir of ['notes', 'journal', 'mail']) {
      const args = { pattern: '.', path: join(home, dir) };
      const printed = await printedIfUncarded('fs_grep', args);
      for (const secret of [KEY_LINE, TOKEN, 'Hunter2Mail']) expectNoTrace(printed, secret, dir);
    }
  });

  it('leaves a tree of ordinary notes readable without a card, encoded or not', async () => {
    for (const command of ['grep -rh . plain | rev', 'grep -rn plan plain', 'diff -r plain plain'])
      expect((await decide('shell_exec', { command, cwd: home })).decision, command).toBe('allow');
  });

  it('appearing between the decision and the run, is cut out of what the line prints', async () => {
    const outcome = await decide('shell_exec', { command: 'grep -rh API plain', cwd: home });
    expect(outcome.decision).toBe('allow');
    await plant(join(home, 'plain', 'later.md'), `use ${TOKEN} for the API\n`);
    const printed = JSON.stringify(await pipeline.invoke(outcome, new AbortController().signal));
    expect(printed).toContain('credential removed');
    expect(printed).not.toContain(TOKEN);
  });
});

describe('the login of a tool the protected list did not name before', () => {
  const stores: readonly (readonly [string, string, string])[] = [
    ['.kaggle/kaggle.json', '{"username":"ada","key":"KAGGLEKEY0123456789abcdef"}\n', 'KAGGLEKEY'],
    ['.config/kaggle/kaggle.json', '{"username":"ada","key":"KAGGLEXDG0123456"}\n', 'KAGGLEXDG'],
    ['.huggingface/token', 'HFPLAIN0123456789abcdef\n', 'HFPLAIN'],
    ['.cache/huggingface/token', 'HFCACHE0123456789abcdef\n', 'HFCACHE'],
    [
      '.config/aerc/accounts.conf',
      '[me]\nsource-cred-cmd = x\nimap-pass = AERCPASS01\n',
      'AERCPASS',
    ],
    ['.msmtprc', 'account x\npasswordeval echo MSMTPPASS01\n', 'MSMTPPASS'],
    ['.irssi/config', 'servers = ({ password = "IRSSIPASS01"; });\n', 'IRSSIPASS'],
    ['.databrickscfg', '[DEFAULT]\ntoken = DATABRICKSTOK01\n', 'DATABRICKSTOK'],
  ];

  beforeEach(async () => {
    for (const [path, text] of stores) await plant(join(home, path), text);
    await plant(join(home, 'notes', 'todo.md'), '# todo\n');
  });

  it('is read by no command and no file tool without a card', async () => {
    for (const [path, , secret] of stores) {
      for (const [executor, args] of [
        ['shell_exec', { command: `cat ${path}`, cwd: home }],
        ['shell_exec', { command: `xxd ${path}`, cwd: home }],
        ['shell_exec', { command: `diff ${path} notes/todo.md`, cwd: home }],
        ['fs_read', { path: join(home, path) }],
        ['fs_grep', { pattern: '.', path: join(home, path, '..') }],
      ] as const) {
        const what = `${executor} ${JSON.stringify(args)}`;
        expect(await printedIfUncarded(executor, args), what).not.toContain(secret);
      }
    }
  });
});

describe('a protected place spelled in another case (a backup, a case-insensitive USB stick)', () => {
  const copies: readonly (readonly [string, string])[] = [
    ['stick/.AWS/Credentials', 'CASEAWSVALUE01'],
    ['stick/.Kaggle/kaggle.json', 'CASEKAGGLEVALUE01'],
    ['stick/.SSH/ID_ED25519', 'CASESSHVALUE01'],
    ['stick/.NETRC', 'CASENETRCVALUE01'],
  ];

  beforeEach(async () => {
    for (const [path, secret] of copies) await plant(join(home, path), `value ${secret}\n`);
  });

  it('is the place it names: read by no command, walk or file tool without a card', async () => {
    for (const [path, secret] of copies) {
      for (const [executor, args] of [
        ['shell_exec', { command: `cat ${path}`, cwd: home }],
        ['shell_exec', { command: 'grep -rh . stick | rev', cwd: home }],
        ['fs_read', { path: join(home, path) }],
        ['fs_grep', { pattern: '.', path: join(home, 'stick') }],
      ] as const) {
        const what = `${executor} ${JSON.stringify(args)}`;
        expectNoTrace(await printedIfUncarded(executor, args), secret, what);
      }
    }
  });
});

describe("a second name (a hard link) for a project's env file", () => {
  const VALUE = 'linked-env-password-77';

  beforeEach(async () => {
    await plant(join(home, 'app', '.env'), `DB_PASSWORD=${VALUE}\n`);
    await plant(join(home, 'shared', 'readme.md'), '# shared\n');
    await link(join(home, 'app', '.env'), join(home, 'shared', 'settings.md'));
  });

  it('holds what the env file holds: read by no command, walk or file tool without a card', async () => {
    for (const [executor, args] of [
      ['shell_exec', { command: 'cat shared/settings.md', cwd: home }],
      ['shell_exec', { command: 'grep -rh . shared | rev', cwd: home }],
      ['fs_read', { path: join(home, 'shared', 'settings.md') }],
      ['fs_grep', { pattern: '.', path: join(home, 'shared') }],
    ] as const) {
      const what = `${executor} ${JSON.stringify(args)}`;
      expectNoTrace(await printedIfUncarded(executor, args), VALUE, what);
    }
  });

  it('leaves a one-named note with a line only an env file makes a credential readable', async () => {
    // In an env file `DB_PASSWORD=postgres` is the password; elsewhere a short word with no
    // digit is no credential (a written-out password like VALUE is one anywhere).
    await plant(join(home, 'notes', 'setup.md'), 'DB_PASSWORD=postgres\n');
    const outcome = await decide('shell_exec', { command: 'cat notes/setup.md', cwd: home });
    expect(outcome.decision).toBe('allow');
  });
});

describe('a link to a directory inside a tree read whole', () => {
  beforeEach(async () => {
    await plant(join(home, 'journal', 'monday.txt'), `set up the API with ${TOKEN}\n`);
    await plant(join(home, 'app', '.env'), 'DB_PASSWORD=followed-env-password-77\n');
    await plant(join(home, 'links', 'a.md'), '# a\n');
    await symlink('../journal', join(home, 'links', 'journal'));
    await symlink('../app', join(home, 'links', 'app'));
  });

  it('is not followed without a card by a program that follows links (find -L, grep -R)', async () => {
    for (const command of [
      'find -L links -type f -exec cat {} +',
      'find links -follow -type f -exec cat {} +',
      'grep -Rh . links | rev',
    ]) {
      const printed = await printedIfUncarded('shell_exec', { command, cwd: home });
      expectNoTrace(printed, TOKEN, command);
      expectNoTrace(printed, 'followed-env-password-77', command);
    }
  });

  it('is followed by a comparer that follows it (diff -rN), and not by grep -r', async () => {
    await mkdir(join(home, 'empty'));
    for (const command of ['diff -rN links empty', 'diff -r -N empty links']) {
      const printed = await printedIfUncarded('shell_exec', { command, cwd: home });
      expectNoTrace(printed, 'followed-env-password-77', command);
    }
    const outcome = await decide('shell_exec', { command: 'grep -rn x links', cwd: home });
    expect(outcome.decision).toBe('allow');
  });
});
