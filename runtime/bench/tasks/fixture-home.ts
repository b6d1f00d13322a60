// A lived-in HOME for the everyday tasks: notes, documents, downloads (photos, an invoice,
// a tarball, a zip), a git project with commits and old and new logs, a python project with an
// ignored .env, a small rust crate, a go module with a compose file, a sqlite books database,
// a script and dotfiles.
// Built fresh for each task under /var/tmp, so no task sees another's leftovers.
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { throwawayHome } from '../throwaway-home.ts';

const dayMs = 24 * 60 * 60 * 1000;

const files: Readonly<Record<string, string>> = {
  '.bashrc': "# ~/.bashrc\nexport EDITOR=vim\nalias ll='ls -la'\n",
  '.gitconfig': '[user]\n\tname = Alice Example\n\temail = alice@old-mail.example\n',
  'notes/todo.md': '# Todo\n\n- [ ] call the dentsit\n- [ ] renew passport\n- [x] pay rent\n',
  'notes/groceries.md': '# Groceries\n\n- eggs\n- bread\n',
  'notes/ideas.md': '# Ideas\n\n- a spreadsheet to track the monthly budget\n- learn rust\n',
  'notes/meeting-2026-11-16.md': '# Planning 2026-11-16\n\n- budget review next week\n',
  'Documents/budget.csv': 'item,amount\nrent,1200\ngroceries,400\nutilities,120\n',
  'Documents/report.txt':
    'Quarterly report\n\nSales grew in every region this quarter, led by the north.\n',
  'Documents/letter.md': 'Dear landlord,\n\nThe heating is broken again.\n',
  'Downloads/invoice-2025-03.pdf': '%PDF-1.4\n% invoice march 2025\n',
  'Downloads/invoice-2025-10.pdf': '%PDF-1.4\n% invoice october 2025\n',
  'scripts/backup.sh':
    '#!/bin/sh\ntar -czf ~/backups/home-$(date +%F).tar.gz ~/notes ~/Documents\n',
};

const project: Readonly<Record<string, string>> = {
  'package.json': `${JSON.stringify(
    {
      name: 'app',
      version: '1.0.0',
      engines: { node: '>=20' },
      scripts: { test: 'node --test', build: 'make build' },
    },
    null,
    2,
  )}\n`,
  Makefile: 'build:\n\tmkdir -p build && cp src/*.js build/\n\ntest:\n\tnode --test\n',
  'README.md': '# app\n\nA small example app.\n',
  '.gitignore': 'node_modules/\nbuild/\nlogs/\n',
  'src/index.js':
    "const { capitalize } = require('./util.js');\n\n// TODO: read the name from argv\nconsole.log(capitalize('hello'));\n",
  'src/util.js':
    '// TODO: handle empty strings\nfunction capitalize(text) {\n  return text[0].toUpperCase() + text.slice(1);\n}\n\nmodule.exports = { capitalize };\n',
  'test/util.test.js':
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst { capitalize } = require('../src/util.js');\n\ntest('capitalize', () => {\n  assert.strictEqual(capitalize('abc'), 'Abc');\n});\n",
};

/** A small python package (its `.env` ignored by git, as such files usually are). */
const pythonProject: Readonly<Record<string, string>> = {
  'README.md': '# pyutil\n\nSmall date helpers.\n',
  'requirements.txt': 'requests>=2.31\n',
  '.gitignore': '.venv/\n__pycache__/\n.env\n',
  'pyutil/__init__.py': '',
  'pyutil/dates.py':
    'from datetime import date\n\n\ndef iso_week(day: date) -> int:\n    return day.isocalendar()[1]\n',
  'tests/test_dates.py':
    'import unittest\nfrom datetime import date\n\nfrom pyutil.dates import iso_week\n\n\nclass IsoWeekTest(unittest.TestCase):\n    def test_new_year(self):\n        self.assertEqual(iso_week(date(2026, 1, 1)), 1)\n',
};

/** A small rust crate with no dependencies (cargo needs no network for it). */
const rustCrate: Readonly<Record<string, string>> = {
  'Cargo.toml':
    '[package]\nname = "rcalc"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
  '.gitignore': '/target\n',
  'src/lib.rs':
    '/// Adds two numbers.\npub fn add(a: i64, b: i64) -> i64 {\n    a + b\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn adds() {\n        assert_eq!(add(2, 2), 4);\n    }\n}\n',
};

/** A small go module with a test and a compose file (go needs no network for it). */
const goModule: Readonly<Record<string, string>> = {
  'go.mod': 'module example.com/hello\n\ngo 1.21\n',
  '.gitignore': '/bin/\n',
  'main.go':
    'package main\n\nimport "fmt"\n\nfunc greet(name string) string { return "hello, " + name }\n\nfunc main() { fmt.Println(greet("world")) }\n',
  'main_test.go':
    'package main\n\nimport "testing"\n\nfunc TestGreet(t *testing.T) {\n\tif greet("go") != "hello, go" {\n\t\tt.Fatal(greet("go"))\n\t}\n}\n',
  'compose.yaml':
    'services:\n  web:\n    build: .\n    ports:\n      - "8080:8080"\n  cache:\n    image: redis:7\n',
};

/** The books database's rows, written with sqlite3 where it exists. */
const booksSql = [
  'CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL, author TEXT, year INTEGER);',
  "INSERT INTO books (title, author, year) VALUES ('Dune', 'Frank Herbert', 1965),",
  "  ('The Left Hand of Darkness', 'Ursula K. Le Guin', 1969), ('Klara and the Sun', 'Kazuo Ishiguro', 2021);",
].join('\n');

/**
 * Where a task's call names the home by its absolute path (as a model does once a tool has
 * printed one): the replay puts the fixture HOME in its place.
 */
export const fixtureHomeMark = '/home/alice';

async function put(root: string, relative: string, content: string | Buffer): Promise<void> {
  const path = join(root, relative);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
}

/** The app project: three commits on main, an origin on GitHub, ignored build/ and logs/. */
async function buildProject(home: string, env: NodeJS.ProcessEnv): Promise<void> {
  const app = join(home, 'projects/app');
  const git = (...args: string[]) => execa('git', args, { cwd: app, env });
  const entries = Object.entries(project);
  await mkdir(app, { recursive: true });
  await git('init', '-q', '-b', 'main');
  await git('remote', 'add', 'origin', 'https://github.com/alice/app.git');
  for (const [index, slice] of [
    entries.slice(0, 4),
    entries.slice(4, 6),
    entries.slice(6),
  ].entries()) {
    for (const [relative, content] of slice) await put(app, relative, content);
    await git('add', '-A');
    await git('commit', '-q', '-m', ['Initial commit', 'Add the app', 'Add tests'][index] ?? '');
  }
  await put(app, 'build/index.js', project['src/index.js'] ?? '');
  const now = Date.now();
  for (const [name, ageDays] of [
    ['app-2026-08-30.log', 85],
    ['app-2026-09-15.log', 69],
    ['app-2026-11-22.log', 1],
  ] as const) {
    const path = join(app, 'logs', name);
    await put(app, join('logs', name), `${name}: started\n`);
    const when = new Date(now - ageDays * dayMs);
    await utimes(path, when, when);
  }
}

/** The pyutil project: one commit on main, and an ignored `.env` holding an API token. */
async function buildPythonProject(home: string, env: NodeJS.ProcessEnv): Promise<void> {
  const root = join(home, 'projects/pyutil');
  await buildRepository(root, pythonProject, env);
  await put(root, '.env', 'API_TOKEN=fixture-token-not-real-7f3a\n');
}

/** A git repository at `root` holding `entries`, one commit on main. */
async function buildRepository(
  root: string,
  entries: Readonly<Record<string, string>>,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const git = (...args: string[]) => execa('git', args, { cwd: root, env });
  for (const [relative, content] of Object.entries(entries)) await put(root, relative, content);
  await git('init', '-q', '-b', 'main');
  await git('add', '-A');
  await git('commit', '-q', '-m', 'Initial commit');
}

/** Downloads: photos, a 2 MB data file, a tarball and (where `zip` exists) a zip. */
async function buildDownloads(home: string, env: NodeJS.ProcessEnv): Promise<void> {
  const downloads = join(home, 'Downloads');
  const jpegHeader = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);
  for (const name of ['IMG_2041.jpg', 'IMG_2042.jpg', 'IMG_2043.jpg']) {
    await put(downloads, name, Buffer.concat([jpegHeader, Buffer.alloc(4096, name)]));
  }
  await put(downloads, 'big-dataset.csv', 'id,value\n'.padEnd(2 * 1024 * 1024, '1,2\n'));
  const site = join(home, '.cache/fixture-site');
  await put(site, 'index.html', '<!doctype html><title>My site</title>\n');
  await put(site, 'css/style.css', 'body { font-family: sans-serif; }\n');
  await execa('tar', ['-czf', join(downloads, 'site-backup.tar.gz'), '-C', site, '.'], { env });
  await put(site, 'manual/README.txt', 'How to use the thing.\n');
  await execa('zip', ['-qr', join(downloads, 'manual.zip'), 'manual'], {
    cwd: site,
    env,
    reject: false,
  });
}

/** A fresh HOME seeded for the everyday tasks, and the env that points there. */
export async function buildFixtureHome(): Promise<{ home: string; env: NodeJS.ProcessEnv }> {
  const { home, env } = await throwawayHome('custode-tasks-');
  for (const [relative, content] of Object.entries(files)) await put(home, relative, content);
  await buildProject(home, env);
  await buildPythonProject(home, env);
  await buildRepository(join(home, 'projects/rcalc'), rustCrate, env);
  await buildRepository(join(home, 'projects/hello-go'), goModule, env);
  await execa('sqlite3', [join(home, 'Documents/books.db')], {
    input: booksSql,
    env,
    reject: false,
  });
  await buildDownloads(home, env);
  return { home, env };
}
