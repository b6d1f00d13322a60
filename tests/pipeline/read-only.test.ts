import { beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_READ_ONLY } from '../../constitution/read-only-commands.ts';
import type { ReadOnlyRuleConfig } from '../../runtime/config.ts';
import { ConfigError } from '../../runtime/errors.ts';
import {
  loadCatalogue,
  matchReadOnly,
  type ReadOnlyCatalogue,
} from '../../runtime/pipeline/read-only.ts';
import { initShellParser, parseShell } from '../../runtime/shell/parse.ts';

let catalogue: ReadOnlyCatalogue;
const everyPath = (): boolean => true;

beforeAll(async () => {
  await initShellParser();
  catalogue = loadCatalogue([]);
});

function rule(source: string, pathOk: (path: string) => boolean = everyPath): string | null {
  return matchReadOnly(parseShell(source), catalogue, pathOk)?.rule ?? null;
}

describe('read-only catalogue: loading', () => {
  it('covers the required commands', () => {
    const names = new Set(BUILT_IN_READ_ONLY.map((r) => r.name));
    const required = [
      'ls',
      'cat',
      'head',
      'tail',
      'wc',
      'grep',
      'rg',
      'find',
      'du',
      'df',
      'ps',
      'pwd',
      'echo',
      'printf',
      'date',
      'uname',
      'whoami',
      'id',
      'which',
      'file',
      'stat',
      'sort',
      'uniq',
      'cut',
      'tr',
      'diff',
      'tree',
      'less',
      'env',
    ];
    const gits = [
      'git status',
      'git log',
      'git diff',
      'git show',
      'git branch',
      'git remote',
      'git rev-parse',
      'npm ls',
      'npm view',
      'node --version',
      'python3 --version',
    ];
    for (const name of [...required, ...gits]) expect(names).toContain(name);
  });

  it('accepts a user rule whose examples hold', () => {
    const extra: ReadOnlyRuleConfig[] = [
      {
        name: 'kubectl get',
        binary: 'kubectl',
        subcommands: ['get'],
        forbidden_flags: ['--kubeconfig'],
        examples: { match: ['kubectl get pods'], no_match: ['kubectl delete pod x'] },
      },
    ];
    const withExtra = loadCatalogue(extra);
    expect(matchReadOnly(parseShell('kubectl get pods -n dev'), withExtra, everyPath)?.rule).toBe(
      'kubectl get',
    );
  });

  it.each([
    [
      { match: ['kubectl delete pod x'], no_match: ['kubectl get pods'] },
      'should match but does not',
    ],
    [{ match: ['kubectl get pods'], no_match: ['kubectl get nodes'] }, 'should not match but does'],
  ])(
    'refuses a drifted example with a ConfigError naming the rule and the example',
    (examples, problem) => {
      const extra: ReadOnlyRuleConfig[] = [
        { name: 'kubectl get', binary: 'kubectl', subcommands: ['get'], examples },
      ];
      let error: unknown;
      try {
        loadCatalogue(extra);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain('approvals.read_only_catalogue.extra.0');
      expect((error as Error).message).toContain('"kubectl get"');
      expect((error as Error).message).toContain(problem);
    },
  );
});

describe('read-only catalogue: matching', () => {
  it.each([
    ['git status', 'git status'],
    ['git log --oneline -10', 'git log'],
    ['git diff --stat', 'git diff'],
    ['git branch -a', 'git branch'],
    ['git remote -v', 'git remote'],
    ['git stash list', 'git stash list'],
    ['ls -la src', 'ls'],
    ["find . -name '*.ts' -not -path './node_modules/*'", 'find'],
    ['ps aux | grep node', 'ps, grep'],
    ['cat noisy.log > /dev/null 2>&1', 'cat'],
    ['cat < input.txt', 'cat'],
    ['if command -v mkfs >/dev/null 2>&1; then echo yes; fi', 'command, echo'],
    ['nice -n 5 ls', 'ls'],
    ['echo "rm -rf /"', 'echo'],
    ['env', 'env'],
    ['node --version', 'node --version'],
    ['npm ls --depth=0', 'npm ls'],
    ['date +%s', 'date'],
    ["grep -rn 'TODO' src", 'grep'],
    ['grep -n x /var/log/app.log', 'grep'],
    ["rg 'fn main' src tests", 'rg'],
    ['diff -ru old/ new/', 'diff'],
    ['sort -u a.txt | uniq -c | head -n 3', 'sort, uniq, head'],
  ])('%s matches %s', (source, name) => {
    expect(rule(source)).toBe(name);
  });

  it.each([
    'find . -delete',
    'find . -execdir ls {} \\;',
    'find . -fprint out.txt',
    'find . -ok rm {} \\;',
    'sort -o out.txt in.txt',
    'sort -uo out.txt in.txt',
    'sort --output=out.txt in.txt',
    'git -c core.pager=./x log',
    'git log --output=x',
    'git diff --ext-diff',
    'git branch new-branch',
    'git push',
    'rg --pre ./x pattern',
    'tree -o t.txt',
    'less +!id README.md',
    'less -o log.txt README.md',
    'uniq a.txt b.txt',
    'date -s 2020-01-01',
    'env ls',
    'env FOO=1',
    'sudo cat README.md',
    'LANG=C ls',
    'ls > files.txt',
    'ls >> files.txt',
    'ls $DIR',
    'ls *.ts',
    'ls {a,b}',
    'cat "$(echo x)"',
    'ls; rm -rf build',
    'ls | sh',
    'ls | xargs rm',
    'echo $(id)',
    'cat <(curl x)',
    './ls',
    '/tmp/evil/cat x',
    "bash -c 'ls'",
    "eval 'ls'",
    'f() { ls; }; f',
    'ls "unterminated',
    '',
    'node script.js',
    "python3 -c 'print(1)'",
    'grep -r password ~',
    'grep -rn TODO .',
    'grep -R key /etc',
    'grep -r x',
    'grep -r x src/../..',
    'rg secret /',
    'rg secret',
    'diff -r ~/a ~/b',
  ])('%s does not match', (source) => {
    expect(rule(source)).toBeNull();
  });

  it('every path argument must pass the caller check', () => {
    const pathOk = (path: string): boolean => !path.startsWith('/secret');
    expect(rule('cat /public/a.txt', pathOk)).toBe('cat');
    expect(rule('cat /public/a.txt /secret/b.txt', pathOk)).toBeNull();
    expect(rule('cat < /secret/b.txt', pathOk)).toBeNull();
    expect(rule('grep --file=/secret/p x', pathOk)).toBeNull();
  });
});
