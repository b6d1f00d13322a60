// A read-only query of a database (`sqlite3 books.db 'SELECT …'`, `.tables`, `.schema`) runs
// without a card as read-only code: the words read by allowlist, the run in the read-only-code
// sandbox (nothing writable, of the home only the database, so ~/.sqliterc is not run). Real
// pipeline, real sqlite3, real bubblewrap; a hostile line is also run under a harmless line's
// grant, so the sandbox alone is tested.
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { exists } from '../helpers/exists.ts';
import { hasProgram } from '../helpers/tools.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, projectAndPipeline, runUnderGrant } from './pipeline-helpers.ts';

const home = process.env.HOME ?? '';
let project: string;
let pipeline: Pipeline;

const sqlite = (db: string, sql: string): string =>
  execFileSync('sqlite3', ['-init', '/dev/null', db, sql], { encoding: 'utf8' });

beforeEach(async () => {
  ({ project, pipeline } = await projectAndPipeline());
  sqlite(
    join(project, 'books.db'),
    "CREATE TABLE books(id INTEGER PRIMARY KEY, title TEXT, year INT); INSERT INTO books(title, year) VALUES ('Dune', 1965), ('Piranesi', 2020);",
  );
});
afterEach(() => pipeline.close());

function decide(command: string): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command, cwd: project }, 'show my books'));
}

/** Decide `decided` (it must run without a card as read-only code), then run `ran` under its grant. */
function run(decided: string, ran = decided): Promise<Record<string, unknown>> {
  return runUnderGrant(
    pipeline,
    call('shell_exec', { command: decided, cwd: project }, 'show my books'),
    {
      reason: 'read-only code: sqlite3 query',
      grant: { tier: 'read-only-code', writable: [] },
    },
    { command: ran, cwd: project },
  );
}

describe.skipIf(!hasProgram('sqlite3', '-version') || !hasProgram('bwrap'))(
  'sqlite3 queries (needs sqlite3 and bwrap)',
  () => {
    it('runs a SELECT, .tables and .schema without a card and prints the rows', async () => {
      expect(
        await run(`sqlite3 -header -csv books.db 'SELECT title, year FROM books ORDER BY id;'`),
      ).toMatchObject({ exit_code: 0, stdout: 'title,year\nDune,1965\nPiranesi,2020\n' });
      expect(
        await run(`sqlite3 books.db '.tables' && sqlite3 books.db '.schema books'`),
      ).toMatchObject({ exit_code: 0, stdout: expect.stringContaining('CREATE TABLE books') });
      expect(
        await run(
          `sqlite3 -json books.db "SELECT count(*) AS n, max(year) FROM books WHERE title LIKE 'D%'"`,
        ),
      ).toMatchObject({ exit_code: 0, stdout: expect.stringContaining('"n":1') });
    });

    it('runs from the home a query of a database outside any work tree', async () => {
      const documents = await makeTempDir('documents-');
      sqlite(
        join(documents, 'books.db'),
        "CREATE TABLE books(title TEXT); INSERT INTO books VALUES ('Dune');",
      );
      const command = `sqlite3 -header -column ${join(documents, 'books.db')} 'SELECT title FROM books LIMIT 5;'`;
      const outcome = await pipeline.evaluate(
        call('shell_exec', { command, cwd: home }, 'my books'),
      );
      expect(outcome).toMatchObject({ decision: 'allow', reason: 'read-only code: sqlite3 query' });
      expect(await pipeline.invoke(outcome, new AbortController().signal)).toMatchObject({
        ok: true,
        result: { exit_code: 0, stdout: expect.stringContaining('Dune') },
      });
    });

    it('saves a query as one new file without a card, that file its only write', async () => {
      const command = `sqlite3 -header -csv books.db 'SELECT title FROM books ORDER BY id' > books.csv`;
      const outcome = await decide(command);
      expect(outcome).toMatchObject({
        decision: 'allow',
        grant: { tier: 'read-only-code', writable: [join(project, 'books.csv')] },
      });
      expect(await pipeline.invoke(outcome, new AbortController().signal)).toMatchObject({
        ok: true,
        result: { exit_code: 0 },
      });
      expect(await readFile(join(project, 'books.csv'), 'utf8')).toBe('title\nDune\nPiranesi\n');
    });

    it('asks for SQL that writes or reaches outside the database', async () => {
      for (const sql of [
        "INSERT INTO books(title) VALUES ('x')",
        "UPDATE books SET title = 'x'",
        'DELETE FROM books',
        'DROP TABLE books',
        'CREATE TABLE t(x)',
        "ATTACH 'other.db' AS o",
        "VACUUM INTO '/var/tmp/copy.db'",
        'PRAGMA journal_mode = wal',
        "SELECT 1; INSERT INTO books(title) VALUES ('x')",
        'WITH x AS (SELECT 1) DELETE FROM books',
        "SELECT readfile('/etc/hostname')",
        `SELECT "readfile"('/etc/hostname')`,
        "SELECT writefile('/var/tmp/x', 'y')",
        "SELECT edit('x')",
        "SELECT name FROM fsdir('.')",
        "SELECT name FROM fsdir WHERE name = '.'",
        "SELECT * FROM zipfile('a.zip')",
        "SELECT load_extension('./evil.so')",
        "SELECT fts3_tokenizer('simple')",
        "SELECT unknown_function('x')",
        'SELECT * FROM books WHERE id = ?',
      ])
        expect(
          (await decide(`sqlite3 books.db "${sql.replaceAll('"', '\\"')}"`)).decision,
          sql,
        ).not.toBe('allow');
    });

    it('asks for dot-commands and options that open, write or run something', async () => {
      for (const command of [
        `sqlite3 books.db '.shell id'`,
        `sqlite3 books.db '.system id'`,
        `sqlite3 books.db '.output out.txt'`,
        `sqlite3 books.db '.once out.txt'`,
        `sqlite3 books.db '.import data.csv books'`,
        `sqlite3 books.db '.read q.sql'`,
        `sqlite3 books.db '.load ./evil'`,
        `sqlite3 books.db '.open other.db'`,
        `sqlite3 books.db '.mode insert books'`,
        `sqlite3 books.db '.tables' '.shell id'`,
        `sqlite3 -init rc.sql books.db 'SELECT 1'`,
        `sqlite3 -cmd '.shell id' books.db 'SELECT 1'`,
        `sqlite3 books.db 'SELECT 1' -cmd '.shell id'`,
        `sqlite3 -A books.db`,
        `sqlite3 'file:books.db?mode=rwc' 'SELECT 1'`,
        `sqlite3 books.db`,
        `sqlite3 books.db < q.sql`,
        `echo 'DELETE FROM books' | sqlite3 books.db`,
        `sqlite3 books.db 'SELECT * FROM books' > books.db`,
        `sqlite3 books.db 'SELECT * FROM books' > out.csv; sqlite3 books.db 'SELECT 1' > two.csv`,
        `sqlite3 .env 'SELECT 1'`,
        `sqlite3 ~/.ssh/keys.db 'SELECT 1'`,
      ])
        expect((await decide(command)).decision, command).not.toBe('allow');
    });

    it('asks for a database whose text holds a credential, as cat would', async () => {
      sqlite(
        join(project, 'keys.db'),
        "CREATE TABLE k(v TEXT); INSERT INTO k VALUES ('AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY');",
      );
      expect((await decide(`sqlite3 keys.db 'SELECT v FROM k'`)).decision).not.toBe('allow');
    });

    it.skipIf(!hasProgram('python3'))(
      'asks when the write-ahead log holds a credential the database file does not yet',
      async () => {
        // A connection left open keeps the row in keys.db-wal; the copy keeps both files.
        const script = [
          'import sqlite3, shutil, sys',
          'c = sqlite3.connect(sys.argv[1] + "/live.db")',
          'c.execute("PRAGMA journal_mode=wal"); c.execute("PRAGMA wal_autocheckpoint=0")',
          'c.execute("CREATE TABLE k(v)")',
          `c.execute("INSERT INTO k VALUES ('AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')")`,
          'c.commit()',
          'for end in ("", "-wal"): shutil.copy(sys.argv[1] + "/live.db" + end, sys.argv[1] + "/keys.db" + end)',
        ].join('\n');
        execFileSync('python3', ['-c', script, project]);
        expect((await decide(`sqlite3 keys.db 'SELECT v FROM k'`)).decision).not.toBe('allow');
      },
    );

    it('asks for a query of a database holding stored SQL, which runs unread by the check', async () => {
      // A sqlar archive holds a credential compressed, out of sight of the check of the file's
      // text; a view stored beside it prints it a letter at a time, past the output check.
      const key = `OPENAI_API_KEY=sk-proj-${'Q7w8E9r0T1'.repeat(4)}`;
      await writeFile(join(project, 'settings.env'), `${key}\n`);
      execFileSync('sqlite3', ['-init', '/dev/null', 'notes.db', '-Ac', 'settings.env'], {
        cwd: project,
      });
      execFileSync('rm', [join(project, 'settings.env')]);
      const letters = `WITH RECURSIVE t(s, i) AS (SELECT (SELECT CAST(sqlar_uncompress(data, sz) AS TEXT) FROM sqlar), 1 UNION ALL SELECT s, i + 1 FROM t WHERE i < 80) SELECT group_concat(substr(s, i, 1), ' ') AS body FROM t`;
      sqlite(join(project, 'notes.db'), `CREATE VIEW summary AS ${letters};`);
      expect((await decide(`sqlite3 notes.db 'SELECT * FROM summary'`)).decision).not.toBe('allow');
      // Each kind of stored SQL a query runs, in UTF-8 and UTF-16, in the file or its log.
      const stored = [
        'CREATE VIEW v AS SELECT title FROM books',
        'CREATE TRIGGER t AFTER INSERT ON books BEGIN SELECT 1; END',
        "CREATE VIRTUAL TABLE z USING zipfile('backup.zip')",
        'CREATE TABLE g(a, b AS (upper(a)))',
      ];
      for (const [at, sql] of stored.entries())
        for (const encoding of ['UTF-8', 'UTF-16le']) {
          const db = join(project, `stored-${String(at)}-${encoding}.db`);
          sqlite(db, `PRAGMA encoding = '${encoding}'; CREATE TABLE books(title TEXT); ${sql};`);
          expect((await decide(`sqlite3 ${db} 'SELECT 1'`)).decision, sql).not.toBe('allow');
        }
    });

    it('runs read-only: a write under a SELECT grant fails and the database keeps its rows', async () => {
      const result = await run(
        `sqlite3 books.db 'SELECT 1'`,
        `sqlite3 books.db "DELETE FROM books"; sqlite3 books.db "INSERT INTO books(title) VALUES ('x')"`,
      );
      expect(String(result.stderr)).toMatch(/readonly|read-only/i);
      expect(sqlite(join(project, 'books.db'), 'SELECT count(*) FROM books')).toBe('2\n');
    });

    it('shows it no ~/.sqliterc, whose lines could run programs', async () => {
      // sqlite3 looks its rc up in the account's home (getpwuid) before $HOME, and this test's
      // HOME is not the account's: the rc is named with -init, so what is tested is what the
      // sandbox shows (the account's home is covered by the masks: bwrap-ops.test.ts).
      const marker = join(project, 'rc-ran');
      await writeFile(join(home, '.sqliterc'), `.shell touch ${marker}\n.print RC-RAN\n`);
      const readsRc = `sqlite3 -init ~/.sqliterc books.db 'SELECT title FROM books LIMIT 1'`;
      try {
        const result = await run(`sqlite3 books.db 'SELECT title FROM books LIMIT 1'`, readsRc);
        expect(String(result.stdout)).not.toContain('RC-RAN');
        expect(await exists(marker)).toBe(false);
        // The control: under a grant that shows the home (read-only: ls) the rc runs.
        const shown = await pipeline.invoke(
          { ...(await decide('ls')), args: { command: readsRc, cwd: project } },
          new AbortController().signal,
        );
        expect(shown).toMatchObject({
          ok: true,
          result: { stdout: expect.stringContaining('RC-RAN') },
        });
      } finally {
        execFileSync('rm', ['-f', join(home, '.sqliterc')]);
      }
    });
  },
);
