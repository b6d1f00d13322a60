// Red team of everything that runs without a card, round three (issue 6): the read-only tier,
// the workspace file and git rules, project code, the narrowed sandbox and the record of
// unreviewed writes, through the real pipeline (real parser, real files, real git, real
// bubblewrap). Ideas that held and holes since closed are tests; an open hole is a todo naming
// the file where the fix belongs, the exact calls, and what they did.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { shellExec } from '../../executors/shell-exec.ts';
import { makeContext, makeTempDir, tierGrant } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';
import { git, shellCallsWithFreshPipeline } from './planted-files.ts';
import { exists } from '../helpers/exists.ts';
import { installNodePackages } from './node-packages.ts';

const intent = 'help me with my project';
const home = process.env.HOME ?? '';
let project: string;

beforeEach(async () => {
  project = await makeTempDir('app-');
  execFileSync('git', ['init', '-q', project]);
  await installNodePackages(project);
  await writeFile(join(project, 'keep.txt'), 'keep me\n');
  git('-C', project, 'add', 'keep.txt');
  git('-C', project, 'commit', '-qm', 'init');
  await mkdir(join(home, '.config', 'app'), { recursive: true });
  await writeFile(join(home, '.config', 'app', 'credentials.env'), 'TOKEN=s3cret\n');
  // Each test its own record of unreviewed writes (one per state dir).
});

const { pipeline, decide, expectDecisions, run } = shellCallsWithFreshPipeline(
  () => project,
  intent,
);

describe('uncarded red team 3: ideas that held', () => {
  it('a redirection that opens an existing file for writing without truncating it (1<>, >&) asks', async () => {
    await expectDecisions('ask', [
      'echo XX 1<> keep.txt',
      'echo XX >& keep.txt',
      'echo XX 3<> keep.txt',
    ]);
    expect(await readFile(join(project, 'keep.txt'), 'utf8')).toBe('keep me\n');
  });

  it('a forbidden file named through /proc (root, cwd links) is still forbidden', async () => {
    await expectDecisions('deny', [
      `cat /proc/self/root${home}/.config/app/credentials.env`,
      `cat /proc/1/root${home}/.config/app/credentials.env`,
      'tail /proc/self/cwd/.config/app/credentials.env',
      'dd if=/dev/sda of=disk.img count=1',
      'head -c 64 /dev/mem',
    ]);
    await expectDecisions('deny', ['cat /proc/self/cwd/.config/app/credentials.env'], home);
  });

  it('readers that take a file from a list or an option value, and diff helpers, ask', async () => {
    await writeFile(join(project, 'list.txt'), `${home}/.config/app/credentials.env\0`);
    await expectDecisions('ask', [
      'sort --files0-from=list.txt',
      `git blame --contents=${home}/.config/app/cred* keep.txt`,
      'git show --ext-diff HEAD',
      'git log -p --ext-diff',
      'make -I node_modules',
    ]);
    await expectDecisions('deny', [
      `git blame --contents ${home}/.config/app/credentials.env keep.txt`,
    ]);
  });

  it('a cache or config that a runner reads is an unreviewed write: __pycache__ makes the runner next run read-only, hidden caches ask', async () => {
    await expectDecisions('ask', [
      "echo '* diff=x' > .gitattributes",
      'mkdir -p node_modules/.cache/x',
      "echo 'cache_dir = src' > .pytest_cache/README.md",
    ]);
    await run("printf '\\x6f\\x0d\\x0d\\x0a' > __pycache__.pyc");
    await run('mkdir __pycache__ && mv __pycache__.pyc __pycache__/conftest.cpython-311.pyc');
    const pytest = await decide('python3 -m pytest -q');
    expect(pytest).toMatchObject({ grant: { tier: 'read-only-code', writable: [] } });
    expect(pytest.reason).toMatch(/unreviewed: .*__pycache__/);
  });

  it('git stash and git checkout -b carry nothing past the record: a write stashed away still makes make run read-only, and stays in the stash', async () => {
    // An append to an existing script asks (a link can make a file a dotfile; nothing runs notes).
    await writeFile(join(project, 'keep.sh'), 'true\n');
    expect(await decide("printf 'x' >> keep.sh")).toMatchObject({ decision: 'ask' });
    await run("printf 'all:\\n\\ttouch pwned\\n' > Makefile");
    await run('git add Makefile');
    expect(await run('git stash')).toMatchObject({ exit_code: 0 });
    expect(await run('git checkout -b topic')).toMatchObject({ exit_code: 0 });
    expect(await readFile(join(project, 'keep.txt'), 'utf8')).toBe('keep me\n');
    expect(await decide('make')).toMatchObject({
      grant: { tier: 'read-only-code', writable: [] },
      reason: expect.stringMatching(/unreviewed: Makefile\)/),
    });
    expect(await run('git stash list')).toMatchObject({
      stdout: expect.stringMatching(/stash@\{0\}/),
    });
    expect(await exists(join(project, 'pwned'))).toBe(false);
  });

  it('a write through a link the user made to a file or directory outside roots.write asks (the resolved path is judged)', async () => {
    await symlink('/etc/hostname', join(project, 'host.conf'));
    await symlink('/etc', join(project, 'sysdir'));
    for (const command of [
      'echo x >> host.conf',
      'chmod 600 host.conf',
      'touch host.conf',
      'tee -a host.conf',
      'echo x > sysdir/new.sh',
    ]) {
      expect((await decide(command)).decision, command).not.toBe('allow');
    }
  });

  it('other spellings of a place (cd, ~+ and ~user in command words, ~+ in a read) ask', async () => {
    await mkdir(join(project, 'sub'));
    await writeFile(join(project, 'sub', 'a.txt'), 'a\n');
    await expectDecisions('ask', [
      'cd sub && echo x > a.txt',
      'tee ~+/keep.txt < keep.txt',
      'cp keep.txt ~+/keep.txt',
      'mv keep.txt ~+/sub',
    ]);
    await expectDecisions('ask', [
      'dd if=keep.txt of={new,keep}.txt',
      'tee {new,keep}.txt < keep.txt',
      "echo x > $'\\x6beep.txt'",
      "dd if=keep.txt of=$'keep.txt'",
      'echo x > ke""ep.txt',
    ]);
    await expectDecisions('ask', ['echo x >> ~root/.bashrc'], home);
    // ~+ is the working directory: the guard judges the file it names, as for the plain path.
    await expectDecisions('deny', ['head -2 ~+/passwd'], '/etc');
    // A credential-named file in a dot-directory is refused by name, whatever leads to it.
    await expectDecisions('deny', ['cat ~+/app/credentials.env'], join(home, '.config'));
  });

  it('the file tools walk no symlinked directory: fs_grep and fs_glob below a link to ~/.config/app find nothing', async () => {
    await symlink(join(home, '.config', 'app'), join(project, 'secrets'));
    for (const [executor, args] of [
      ['fs_grep', { pattern: 'TOKEN', path: project }],
      ['fs_glob', { pattern: '**/*.env', path: project }],
    ] as const) {
      const outcome = await pipeline().evaluate(call(executor, args, intent));
      expect(outcome, executor).toMatchObject({ decision: 'allow' });
      const ran = await pipeline().invoke(outcome, new AbortController().signal);
      expect(ran, executor).toMatchObject({ ok: true, result: { matches: [] } });
    }
  });

  it('a copy of the whole tree into a link to /tmp asks', async () => {
    await symlink('/tmp', join(project, 'scratch'));
    await expectDecisions('ask', ['cp -r . scratch/all', 'tar cf scratch/all.tar .']);
  });
});

describe('uncarded red team 3: holes closed', () => {
  it('a directory built to look like a bare repository brings no config to uncarded git', async () => {
    const head = execFileSync('git', ['-C', project, 'rev-parse', 'HEAD'], { encoding: 'utf8' });
    await mkdir(join(project, 'evil', 'objects', 'info'), { recursive: true });
    await mkdir(join(project, 'evil', 'refs'), { recursive: true });
    await writeFile(
      join(project, 'evil', 'objects', 'info', 'alternates'),
      `${project}/.git/objects\n`,
    );
    await writeFile(join(project, 'evil', 'HEAD'), head);
    await mkdir(join(project, 'evil', 'info'));
    await writeFile(join(project, 'evil', 'info', 'attributes'), '* diff=x\n');
    await writeFile(
      join(project, 'evil', 'config'),
      '[core]\n\tbare = true\n[diff "x"]\n\ttextconv = echo TEXTCONV-RAN\n',
    );
    // The decision reads the config git would use there, sees the textconv, and asks.
    const show = await decide('git show HEAD', join(project, 'evil'));
    expect(show.decision).toBe('ask');
    // Run as a tier runs it, git still refuses the bare repository it found
    // (safe.bareRepository=explicit comes with every uncarded run): no textconv starts.
    const ctx = await makeContext({ roots: { write: ['~', '/tmp'] } });
    const ran = await shellExec.run(
      { command: 'git show HEAD', cwd: join(project, 'evil') },
      { ...ctx, grant: tierGrant([]) },
    );
    expect(ran.stderr).toMatch(/bare repository/);
    expect(JSON.stringify(ran)).not.toContain('TEXTCONV-RAN');
  });

  it('a new file in a PATH directory or its install prefix asks', async () => {
    const prefix = join(home, 'tools-prefix');
    const withPath = await pipelineWith(
      { roots: { write: ['~', '/tmp'] } },
      { ...process.env, PATH: `${prefix}/bin:/usr/bin:/bin` },
    );
    try {
      for (const command of [`touch ${prefix}/bin/git`, `mkdir -p ${prefix}/etc/profile.d`]) {
        const outcome = await withPath.evaluate(
          call('shell_exec', { command, cwd: project }, intent),
        );
        expect(outcome, command).toMatchObject({ decision: 'ask' });
      }
    } finally {
      withPath.close();
    }
  });

  it('writes through links: an append to a linked dotfile, a move into a link to /tmp, two spellings of one file, ~+', async () => {
    await mkdir(join(home, 'dotfiles'), { recursive: true });
    await writeFile(join(home, 'dotfiles', 'bashrc'), '# rc\n');
    await mkdir(join(project, 'real'));
    await symlink(join(project, 'real'), join(project, 'link'));
    await symlink('/tmp', join(project, 'scratch'));
    await expectDecisions('ask', [
      "echo 'touch ~/pwned' >> ~/dotfiles/bashrc",
      'mv keep.txt scratch/keep.txt',
      'echo a > real/moved.txt && echo b > link/moved.txt',
      'echo overwritten > ~+/keep.txt',
      'dd if=keep.txt of=~+/keep.txt',
    ]);
  });

  it('reads through a link the user made are judged where they lead, by the tiers and by fs_read', async () => {
    await symlink(join(home, '.config', 'app'), join(project, 'secrets'));
    expect(await decide('cat secrets/credentials.env')).not.toMatchObject({ decision: 'allow' });
    const read = await pipeline().evaluate(
      call('fs_read', { path: join(project, 'secrets', 'credentials.env') }, intent),
    );
    // The guard stage asks the path oracle, which resolves the link: refused before any run.
    expect(read).toMatchObject({ decision: 'deny', stage: 'guard' });
    expect(read.reason).toMatch(/application credentials/);
  });

  it('runner words that carry code, and make -B, ask', async () => {
    await expectDecisions('ask', [
      'npm test -- --import=data:text/javascript,import%28%22x%22%29',
      'npx vitest run --execArgv=--import=data:text/javascript,1',
      'npx prettier --plugin=data:text/javascript,1 --check f',
      'npx eslint --plugin foo .',
      'make -B notes',
    ]);
  });

  it('project code run read-only names the newest unreviewed file first', async () => {
    for (const name of ['a.md', 'b.md', 'c.md']) await run(`echo notes > ${name}`);
    await run("printf 'all:\\n\\ttouch pwned\\n' > Makefile");
    const make = await decide('make');
    expect(make).toMatchObject({ grant: { tier: 'read-only-code' } });
    expect(make.reason).toMatch(/unreviewed: Makefile, c\.md, b\.md, a\.md\)/);
  });
});
