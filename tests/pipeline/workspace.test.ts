// The workspace tier through the real pipeline: real parser, real files, real bubblewrap.
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../runtime/config.ts';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith, writableOf } from './pipeline-helpers.ts';
import { exists } from '../helpers/exists.ts';

const intent = 'help me with my project';
let project: string;
let pipeline: Pipeline;

async function open(config: ConfigInput = {}): Promise<void> {
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] }, ...config });
}

beforeEach(async () => {
  project = await makeTempDir('project-');
});
afterEach(() => {
  pipeline.close();
});

async function decide(command: string, cwd: string | null = project): Promise<PipelineOutcome> {
  return pipeline.evaluate(
    call('shell_exec', cwd === null ? { command } : { command, cwd }, intent),
  );
}

describe('workspace: writes that lose nothing run without a card', () => {
  beforeEach(() => open());

  it('allows creating a new file and names the rule and the one writable directory', async () => {
    const outcome = await decide('sort -u names.txt > names.sorted');
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'workspace: sort' });
    expect(writableOf(outcome)).toEqual([project]);
    expect(outcome.signals).toContain('workspace: sort');
  });

  it('asks when the redirect would overwrite or append to a file that exists; a new one is fine', async () => {
    await writeFile(join(project, 'notes.txt'), 'keep me\n');
    expect(await decide('echo x > notes.txt')).toMatchObject({ decision: 'ask' });
    expect(await decide('echo x >| notes.txt')).toMatchObject({ decision: 'ask' });
    // An append to a plain notes file only adds lines; judged where its links lead, a link that
    // makes it a dotfile (~/.bashrc -> ~/dotfiles/bashrc) asks, and so does a script.
    const append = await decide('echo x >> notes.txt');
    expect(append).toMatchObject({
      decision: 'allow',
      grant: { records: [join(project, 'notes.txt')] },
    });
    await pipeline.invoke(append, new AbortController().signal);
    expect(await readFile(join(project, 'notes.txt'), 'utf8')).toBe('keep me\nx\n');
    await symlink(join(project, '.profile_extra'), join(project, 'linked.txt'));
    await writeFile(join(project, '.profile_extra'), 'export A=1\n');
    expect(await decide('echo x >> linked.txt')).toMatchObject({ decision: 'ask' });
    await writeFile(join(project, 'nightly.txt'), 'echo hi\n', { mode: 0o755 });
    expect(await decide('echo "rm -rf ~" >> nightly.txt')).toMatchObject({ decision: 'ask' });
    await writeFile(join(project, 'backup.sh'), 'tar czf b.tgz notes\n');
    expect(await decide('echo "rm -rf ~" >> backup.sh')).toMatchObject({ decision: 'ask' });
    expect(await decide('echo x >> fresh.txt')).toMatchObject({
      decision: 'allow',
      reason: 'workspace: echo',
    });
  });

  it('asks for copies and moves onto an existing name, and for the options that clobber', async () => {
    await writeFile(join(project, 'a.txt'), 'a\n');
    await writeFile(join(project, 'b.txt'), 'b\n');
    await mkdir(join(project, 'docs'));
    expect(await decide('cp a.txt c.txt')).toMatchObject({ decision: 'allow' });
    expect(await decide('cp a.txt docs/')).toMatchObject({ decision: 'allow' });
    expect(await decide('cp a.txt b.txt')).toMatchObject({ decision: 'ask' });
    expect(await decide('cp -f a.txt c.txt')).toMatchObject({ decision: 'ask' });
    expect(await decide('mv a.txt docs/a.md')).toMatchObject({ decision: 'allow' });
    expect(await decide('mv a.txt b.txt')).toMatchObject({ decision: 'ask' });
    await writeFile(join(project, 'docs', 'a.txt'), 'there\n');
    expect(await decide('cp a.txt docs')).toMatchObject({ decision: 'ask' });
  });

  it('allows plain permission changes, and asks for setuid, sticky and -R', async () => {
    await writeFile(join(project, 'run.sh'), 'echo hi\n');
    expect(await decide('chmod +x run.sh')).toMatchObject({ decision: 'allow' });
    for (const command of ['chmod u+s run.sh', 'chmod 4755 run.sh', 'chmod -R 777 .']) {
      expect(await decide(command), command).toMatchObject({ decision: 'ask' });
    }
  });

  it("refuses a write into Custode's own state dir", async () => {
    const own = `${process.env.XDG_STATE_HOME ?? ''}/custode/x`;
    expect(await decide(`touch ${own}`)).toMatchObject({ decision: 'deny', stage: 'guard' });
  });

  it('asks for a new file where it would change what runs later (hidden, ~/bin)', async () => {
    for (const command of [
      'touch ~/.profile_extra',
      'mkdir -p ~/.config/autostart',
      'touch ~/bin/ls',
      'touch .git/hooks/pre-commit',
      'echo "use nix" > .envrc',
      'mkdir -p .husky',
      'touch src/.gitkeep',
      'touch ~',
    ]) {
      expect(await decide(command), command).toMatchObject({ decision: 'ask' });
    }
  });

  it('asks when the new name is a dangling symlink that points somewhere else', async () => {
    await symlink(join(process.env.HOME ?? '', '.bash_login_x'), join(project, 'out.log'));
    expect(await decide('echo x > out.log')).toMatchObject({ decision: 'ask' });
  });

  it('asks for writes outside roots.write', async () => {
    const elsewhere = await pipelineWith({ roots: { write: [project] } });
    try {
      const outcome = await elsewhere.evaluate(
        call('shell_exec', { command: 'touch ~/new.txt' }, intent),
      );
      expect(outcome).toMatchObject({ decision: 'ask' });
    } finally {
      elsewhere.close();
    }
  });

  it('deletes only in the private /tmp, globs included; never in the workspace', async () => {
    const scratch = await decide('rm -rf /tmp/build /tmp/*', null);
    expect(scratch).toMatchObject({ decision: 'allow', reason: 'workspace: rm in /tmp' });
    expect(writableOf(scratch)).toEqual([]);
    expect(await decide('rm -rf build')).toMatchObject({ decision: 'ask' });
    const device = await decide('echo x > /dev/shm/cache && echo y | tee /dev/tty');
    expect(device).toMatchObject({ decision: 'allow', grant: { writable: [] } });
    expect(await decide('rm -rf /tmp/../etc/x', null)).not.toMatchObject({ decision: 'allow' });
    expect(await decide('touch src/*.ts')).toMatchObject({ decision: 'ask' });
  });

  it('allows local git changes with a message, and asks for history rewrites and editors', async () => {
    execFileSync('git', ['init', '-q', project]);
    await mkdir(join(project, 'src'));
    const commit = await decide(
      "git add -A && git commit -m 'wip: login form'",
      join(project, 'src'),
    );
    expect(commit).toMatchObject({ decision: 'allow', reason: 'workspace: git add, git commit' });
    expect(writableOf(commit)).toEqual([project]);
    for (const command of [
      'git commit',
      // --amend with a message loses nothing (the reflog keeps the old commit); an editor or a
      // rebase does ask.
      'git commit --amend',
      'git rebase -i HEAD~3',
      'git reset --hard HEAD~1',
      'git -c core.hooksPath=/tmp/h commit -m x',
      'git checkout -- src',
      'git stash drop',
      'git push origin main',
    ]) {
      expect(await decide(command), command).toMatchObject({ decision: 'ask' });
    }
  });

  it('asks for every command line that is not all catalogue: one unknown command is enough', async () => {
    for (const command of [
      'mkdir out && make',
      'echo x > "$OUT"',
      'touch $(date +%s).txt',
      'f() { touch x; }; f',
      'sudo touch x',
      'cd src && touch x',
      'echo x > out.txt; rm -rf build',
    ]) {
      expect(await decide(command), command).toMatchObject({ decision: 'ask' });
    }
  });
});

describe('workspace: the writes of one call, taken together', () => {
  beforeEach(() => open());

  it('asks when one command fills what another writes, or a move lands in scratch', async () => {
    await writeFile(join(project, 'keep.txt'), 'keep\n');
    await writeFile(join(project, 'a.txt'), 'a\n');
    for (const command of [
      'mv keep.txt /tmp/',
      'mv keep.txt new.txt && echo x > new.txt',
      'echo a > x.txt; echo b > x.txt',
      'mkdir d && cp a.txt d',
      'cp -r a.txt copy && echo x > copy/inner',
      'touch z.txt && echo x > /dev/fd/../cwd/keep.txt',
      'touch ~/z.txt && echo evil >> /tmp/r/x',
      'cat /dev/fd/../root/etc/hostname',
      'cp a.txt sub/../b.txt',
    ]) {
      expect(await decide(command), command).toMatchObject({ decision: 'ask' });
    }
    expect(await decide('echo a > x.txt && echo b >> y.txt')).toMatchObject({ decision: 'allow' });
    expect((await decide('cat ../README.md')).reason).toBe('read-only: cat');
  });
});

describe('workspace: git outside a repository, in the home, and paths through /dev links', () => {
  beforeEach(() => open());

  it('lets git fail outside a repository, and asks when the home itself is one', async () => {
    expect(await decide("git commit -m 'x'")).toMatchObject({
      decision: 'allow',
      grant: { writable: [] },
    });
    const homeRepo = join(process.env.HOME ?? '', '.git');
    execFileSync('git', ['init', '-q', process.env.HOME ?? '']);
    try {
      expect(await decide('git add -A', null)).toMatchObject({ decision: 'ask' });
      expect(await decide('git add -A')).toMatchObject({ decision: 'ask' });
    } finally {
      await rm(homeRepo, { recursive: true, force: true });
    }
  });

  it('asks for writes below the /dev links into /proc/self, and for a cwd that climbs', async () => {
    await writeFile(join(project, 'keep.txt'), 'keep\n');
    execFileSync('git', ['init', '-q', project]);
    for (const [command, cwd] of [
      ['git add keep.txt && echo x < . > /dev/stdin/keep.txt', project],
      ['echo x > /dev/fd/3/keep.txt 3< .', project],
      ['rm -f stdin/keep.txt < ' + project, '/dev'],
      ['touch notes.txt', '/dev/fd/../cwd'],
    ] as const) {
      expect(await decide(command, cwd), command).toMatchObject({ decision: 'ask' });
    }
    expect(await decide('echo x > /dev/stderr && echo y > /dev/shm/cache', null)).toMatchObject({
      decision: 'allow',
      grant: { writable: [] },
    });
  });
});

describe('workspace: where it is off', () => {
  it('asks when the sandbox has network, when it is off, and when config disables it', async () => {
    for (const config of [
      { sandbox: { network: true } },
      { sandbox: { mode: 'off' as const } },
      { approvals: { workspace_catalogue: { enabled: false } } },
    ]) {
      await open(config);
      expect(await decide('mkdir -p build/out'), JSON.stringify(config)).toMatchObject({
        decision: 'ask',
      });
      pipeline.close();
    }
    await open();
  });
});

describe('workspace: the call runs with only its directories writable', () => {
  beforeEach(() => open());

  it('creates what it said it would, in a real sandbox', async () => {
    const outcome = await decide('mkdir -p build/out && echo hi > build/out/x.txt');
    expect(outcome).toMatchObject({ decision: 'allow', grant: { writable: [project] } });
    const ran = await pipeline.invoke(outcome, new AbortController().signal);
    expect(ran).toMatchObject({ ok: true, result: { exit_code: 0, sandbox: 'bwrap' } });
    expect(await readFile(join(project, 'build/out/x.txt'), 'utf8')).toBe('hi\n');
  });

  it('cannot write beside the directories it named, should the parse ever be wrong', async () => {
    const sibling = await makeTempDir('sibling-');
    const outcome = await decide('touch made.txt');
    expect(writableOf(outcome)).toEqual([project]);
    const hole = { ...outcome, args: { command: `touch ${sibling}/x ~/y`, cwd: project } };
    const ran = await pipeline.invoke(hole, new AbortController().signal);
    expect(ran).toMatchObject({
      ok: true,
      result: { stderr: expect.stringMatching(/Read-only file system/) },
    });
  });
});

describe('workspace: an uncarded git change runs no hooks', () => {
  beforeEach(() => open());

  it('commits without running pre-commit, which an approved commit runs', async () => {
    execFileSync('git', ['init', '-q', project]);
    for (const [key, value] of [
      ['user.email', 'ana@example.com'],
      ['user.name', 'Ana'],
    ] as const) {
      execFileSync('git', ['-C', project, 'config', key, value]);
    }
    const hook = join(project, '.git', 'hooks', 'pre-commit');
    await writeFile(hook, '#!/bin/sh\ntouch "$(git rev-parse --show-toplevel)/hook-ran"\n');
    await chmod(hook, 0o755);
    await writeFile(join(project, 'a.txt'), 'a\n');
    const command = "git add a.txt && git commit -q -m 'add a'";
    const outcome = await decide(command);
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'workspace: git add, git commit' });
    const ran = await pipeline.invoke(outcome, new AbortController().signal);
    expect(ran).toMatchObject({ ok: true, result: { exit_code: 0 } });
    expect(execFileSync('git', ['-C', project, 'log', '--oneline'], { encoding: 'utf8' })).toMatch(
      /add a/,
    );
    expect(await exists(join(project, 'hook-ran'))).toBe(false);

    await writeFile(join(project, 'b.txt'), 'b\n');
    const approved = await pipeline.evaluate(
      call(
        'shell_exec',
        { command: "git add b.txt && git commit -q -m 'add b'", cwd: project },
        intent,
        {
          approvedBy: 'local:1',
        },
      ),
    );
    expect(await pipeline.invoke(approved, new AbortController().signal)).toMatchObject({
      ok: true,
      result: { exit_code: 0 },
    });
    expect(await exists(join(project, 'hook-ran'))).toBe(true);
  });
});
