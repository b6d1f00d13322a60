import { mkdtemp, readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { createRuleStore } from '../../runtime/approvals/rule-store.ts';
import { exactShellScope } from '../../runtime/approvals/shell-scope.ts';
import { initShellParser } from '../../runtime/shell/parse.ts';
import type { ProposedCall } from '../../runtime/pipeline/types.ts';

const home = process.env.HOME ?? '';
let dir: string;
beforeEach(async () => {
  dir = join(await mkdtemp(join(process.env.HOME ?? tmpdir(), 'custode-rules-')), 'rules');
});

const shell = (command: string, sender = 'telegram:42'): ProposedCall => ({
  executor: 'shell_exec',
  args: { command },
  intent: 'do it',
  sender,
});
const write = (path: string, sender = 'telegram:42'): ProposedCall => ({
  executor: 'fs_write',
  args: { path, content: 'x' },
  intent: 'write it',
  sender,
});
const fetchUrl = (url: string, sender = 'telegram:42'): ProposedCall => ({
  executor: 'web_fetch',
  args: { url },
  intent: 'fetch it',
  sender,
});

describe('propose', () => {
  it('scopes a shell call to exactly its words, where it runs', async () => {
    const rules = await createRuleStore(dir);
    expect(rules.propose(shell('git status --short'))).toMatchObject({
      v: 1,
      sender: 'telegram:42',
      executor: 'shell_exec',
      scope: { binary: 'git', args: ['status', '--short'], cwd: home },
      description: 'Always allow `git status --short` exactly, in ~',
    });
    const push = {
      ...shell('git push --force origin main'),
      args: { command: 'git push --force origin main', cwd: '~/app' },
    };
    expect(rules.propose(push)).toMatchObject({
      scope: { binary: 'git', args: ['push', '--force', 'origin', 'main'], cwd: join(home, 'app') },
      description: 'Always allow `git push --force origin main` exactly, in ~/app',
    });
    expect(rules.propose(shell('git commit -m "two words"'))?.description).toBe(
      "Always allow `git commit -m 'two words'` exactly, in ~",
    );
    expect(rules.propose(shell('df -h'))?.scope).toEqual({ binary: 'df', args: ['-h'], cwd: home });
    expect(rules.propose(shell('cat /tmp/x'))?.scope.args).toEqual(['/tmp/x']);
  });

  it.each([
    ['an interpreter', 'python3 -c "print(1)"'],
    ['a shell', 'bash -c "git status"'],
    ['a wrapper', 'sudo git status'],
    ['env as wrapper', 'env git status'],
    ['xargs', 'xargs git status'],
    ['a list', 'git status && rm -rf build'],
    ['a pipeline', 'git log | head'],
    ['a substitution', 'git checkout $(cat branch)'],
    ['a variable', 'git checkout $BRANCH'],
    ['a glob', 'git add *.ts'],
    ['a writing redirect', 'git log > out.txt'],
    ['a destructive binary', 'rm -rf build'],
    ['an env assignment', 'GIT_DIR=/tmp git status'],
  ])('proposes nothing for %s', async (_what, command) => {
    const rules = await createRuleStore(dir);
    expect(rules.propose(shell(command))).toBeNull();
  });

  it('scopes a file call to the parent directory and a fetch to its host', async () => {
    const rules = await createRuleStore(dir);
    expect(rules.propose(write('~/notes/today.txt'))).toMatchObject({
      scope: { dirPrefix: join(home, 'notes') },
      description: 'Always allow fs_write in ~/notes/ and below',
    });
    expect(rules.propose(fetchUrl('https://Example.com/page?q=1'))).toMatchObject({
      scope: { host: 'example.com' },
      description: 'Always allow web_fetch from example.com',
    });
    expect(rules.propose(fetchUrl('file:///etc/hosts'))).toBeNull();
    expect(rules.propose(write('/top-level.txt'))).toBeNull();
    expect(rules.propose(write('~/notes.txt'))).toBeNull();
    expect(rules.propose(write(`${home}/../x.txt`))).toBeNull();
  });

  it('needs a sender and a known executor', async () => {
    const rules = await createRuleStore(dir);
    expect(
      rules.propose({ executor: 'shell_exec', args: { command: 'git status' }, intent: '' }),
    ).toBeNull();
    expect(rules.propose({ ...shell('git status'), executor: '__proto__' })).toBeNull();
  });
});

describe('rules: add, match, list, remove, persist', () => {
  it('matches only the same scope and only for its sender', async () => {
    const rules = await createRuleStore(dir);
    for (const call of [
      shell('git status'),
      write('~/notes/a.txt'),
      fetchUrl('https://example.com/'),
    ]) {
      const rule = rules.propose(call);
      if (rule === null) throw new Error('expected a rule');
      await rules.add(rule);
    }
    expect(rules.match(shell('git status'))?.scope).toEqual({
      binary: 'git',
      args: ['status'],
      cwd: home,
    });
    expect(rules.match(shell('git status -s'))).toBeNull();
    expect(
      rules.match({ ...shell('git status'), args: { command: 'git status', cwd: '/tmp' } }),
    ).toBeNull();
    expect(rules.match(shell('git push'))).toBeNull();
    expect(rules.match(shell('git status; rm -rf ~/notes'))).toBeNull();
    expect(rules.match(shell('git status', 'telegram:7'))).toBeNull();
    expect(rules.match(write('~/notes/sub/b.txt'))?.executor).toBe('fs_write');
    expect(rules.match(write('~/notes/../.bashrc'))).toBeNull();
    expect(rules.match(write('~/notes-old/a.txt'))).toBeNull();
    expect(rules.match({ ...write('~/notes/a.txt'), executor: 'fs_delete' })).toBeNull();
    expect(rules.match(fetchUrl('https://example.com/other'))?.scope).toEqual({
      host: 'example.com',
    });
    expect(rules.match(fetchUrl('https://evil.example.com/'))).toBeNull();
  });

  it('lists per sender, removes by 1-based number, and persists across re-creation', async () => {
    const first = await createRuleStore(dir);
    const a = first.propose(shell('git status'));
    const b = first.propose(shell('npm test'));
    const other = first.propose(shell('git status', 'slack:U1'));
    if (a === null || b === null || other === null) throw new Error('expected rules');
    await first.add(a);
    await first.add(a);
    await first.add(b);
    await first.add(other);
    expect((await first.list('telegram:42')).map((r) => r.scope)).toEqual([
      { binary: 'git', args: ['status'], cwd: home },
      { binary: 'npm', args: ['test'], cwd: home },
    ]);
    const saved = JSON.parse(await readFile(join(dir, 'rules.json'), 'utf8')) as {
      v: number;
      rules: unknown[];
    };
    expect(saved.v).toBe(1);
    expect(saved.rules).toHaveLength(3);

    const second = await createRuleStore(dir);
    expect(await second.list('telegram:42')).toHaveLength(2);
    expect(await second.remove('telegram:42', 3)).toBe(false);
    expect(await second.remove('telegram:42', 0)).toBe(false);
    expect(await second.remove('telegram:42', 1)).toBe(true);
    expect(second.match(shell('git status'))).toBeNull();
    expect(second.match(shell('git status', 'slack:U1'))).not.toBeNull();

    const third = await createRuleStore(dir);
    expect((await third.list('telegram:42')).map((r) => r.scope)).toEqual([
      { binary: 'npm', args: ['test'], cwd: home },
    ]);
  });

  it('keeps honouring a rule saved as binary + subcommand before exact rules', async () => {
    await mkdir(dir, { recursive: true });
    const legacy = {
      v: 1,
      sender: 'telegram:42',
      executor: 'shell_exec',
      scope: { binary: 'git', subcommand: 'status' },
      description: 'Always allow `git status …` (any arguments)',
      createdAt: new Date().toISOString(),
    };
    await writeFile(join(dir, 'rules.json'), JSON.stringify({ v: 1, rules: [legacy] }));
    const rules = await createRuleStore(dir);
    expect(rules.match(shell('git status -s'))?.description).toBe(legacy.description);
    expect(rules.match(shell('git push'))).toBeNull();
    expect(rules.match(shell('git status && rm -rf x'))).toBeNull();
  });

  it('moves a corrupt rules file aside, reports it, and starts empty', async () => {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'rules.json'), '{"v":1,"rules":[{"v":1}]}');
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const rules = await createRuleStore(dir, { logger });
    expect(await rules.list('telegram:42')).toEqual([]);
    expect(lines.join('')).toContain('corrupt always-allow rules file moved aside');
    const files = await readdir(dir);
    const aside = files.find((f) => f.startsWith('rules.json.corrupt-'));
    expect(aside).toBeDefined();
    expect(await readFile(join(dir, aside ?? ''), 'utf8')).toBe('{"v":1,"rules":[{"v":1}]}');
  });
});

describe('always-allow rules and the one list of programs', () => {
  beforeEach(async () => {
    await initShellParser();
  });

  it.each([
    'python3.12 -V',
    'pypy3 manage.py migrate',
    'mksh -c true',
    'csh -c ls',
    'node20 x.js',
    'uvx ruff check',
  ])('offers no rule for %s: it runs code it is handed', (command) => {
    expect(exactShellScope(command)).toBeNull();
  });
});
