import { beforeAll, describe, expect, it } from 'vitest';
import type { ShellRequest } from '../../../executors/ops/shell-ops.ts';
import { buildBwrapArgs, hiddenByPrivateTmp } from '../../../executors/sandbox/bwrap-args.ts';
import { bashWords } from '../../../executors/sandbox/command-text.ts';

const request: ShellRequest = {
  command: 'ls "$1"',
  args: ['a dir'],
  cwd: '/home/ana/ws',
  timeoutMs: 1000,
  outputCapBytes: 1000,
  signal: new AbortController().signal,
  writableRoots: ['/home/ana/ws', '/home/ana', '/tmp', '/home/ana'],
  network: false,
  env: {},
};

/** The index of a flag followed by its operands in argv, or -1. */
function find(argv: readonly string[], ...sequence: string[]): number {
  return argv.findIndex((_, i) => sequence.every((item, k) => argv[i + k] === item));
}

describe('buildBwrapArgs', () => {
  const masks = [
    { path: '/home/ana/.ssh', kind: 'dir' as const },
    { path: '/home/ana/.netrc', kind: 'file' as const },
  ];
  let argv: string[] = [];
  beforeAll(() => {
    argv = buildBwrapArgs(request, '/home/ana', masks);
  });

  it('isolates: no network, no capabilities, dies with its parent, read-only root, private /tmp', () => {
    for (const flag of ['--die-with-parent', '--new-session', '--unshare-all']) {
      expect(argv).toContain(flag);
    }
    expect(argv).not.toContain('--share-net');
    expect(find(argv, '--cap-drop', 'ALL')).toBeGreaterThanOrEqual(0);
    expect(find(argv, '--ro-bind', '/', '/')).toBeGreaterThanOrEqual(0);
    expect(find(argv, '--tmpfs', '/tmp')).toBeGreaterThan(find(argv, '--ro-bind', '/', '/'));
  });

  it('binds each writable root once, parents first, and never the host /tmp', () => {
    const binds = argv.flatMap((item, i) => (item === '--bind-try' ? [argv[i + 1]] : []));
    expect(binds).toEqual(['/home/ana', '/home/ana/ws']);
  });

  it('masks secret stores after every writable bind, so none can uncover them', () => {
    const lastBind = argv.lastIndexOf('--bind-try');
    expect(find(argv, '--tmpfs', '/home/ana/.ssh')).toBeGreaterThan(lastBind);
    expect(find(argv, '--ro-bind', '/dev/null', '/home/ana/.netrc')).toBeGreaterThan(lastBind);
  });

  it('ends with bash and the args as positional parameters, the command kept out of every argv', () => {
    expect(argv.slice(-7)).toEqual(['--chdir', '/home/ana/ws', 'bash', ...bashWords(['a dir'])]);
    expect(argv.join(' ')).not.toContain('ls "$1"');
  });

  it('shares the network only when asked, and keeps a HOME under /tmp visible read-only', () => {
    const open = buildBwrapArgs({ ...request, network: true }, '/tmp/home-x');
    expect(open).toContain('--share-net');
    expect(find(open, '--ro-bind', '/tmp/home-x', '/tmp/home-x')).toBeGreaterThan(
      find(open, '--tmpfs', '/tmp'),
    );
  });

  it('binds read-only places within the writable roots after them, and roots it may only read before', () => {
    const narrowed = buildBwrapArgs(
      {
        ...request,
        writableRoots: ['/tmp/ws/app'],
        visibleRoots: ['/tmp/ws', '/tmp'],
        readOnlyWithin: ['/tmp/ws/app/.git'],
      },
      '/home/ana',
    );
    const visible = find(narrowed, '--ro-bind-try', '/tmp/ws', '/tmp/ws');
    const writable = find(narrowed, '--bind-try', '/tmp/ws/app', '/tmp/ws/app');
    const kept = find(narrowed, '--ro-bind-try', '/tmp/ws/app/.git', '/tmp/ws/app/.git');
    expect(find(narrowed, '--tmpfs', '/tmp')).toBeLessThan(visible);
    expect(visible).toBeLessThan(writable);
    expect(writable).toBeLessThan(kept);
    expect(find(narrowed, '--ro-bind-try', '/tmp', '/tmp')).toBe(-1);
  });

  it('knows which host /tmp paths the private /tmp hides', () => {
    const inTmp = { ...request, writableRoots: ['/tmp', '/tmp/ws'] };
    expect(hiddenByPrivateTmp('/tmp/other', inTmp.writableRoots, '/home/ana')).toBe(true);
    expect(hiddenByPrivateTmp('/tmp', inTmp.writableRoots, '/home/ana')).toBe(true);
    expect(hiddenByPrivateTmp('/tmp/ws/sub', inTmp.writableRoots, '/home/ana')).toBe(false);
    expect(hiddenByPrivateTmp('/tmp/h/x', inTmp.writableRoots, '/tmp/h')).toBe(false);
    expect(hiddenByPrivateTmp('/home/ana/x', inTmp.writableRoots, '/home/ana')).toBe(false);
    expect(hiddenByPrivateTmp('/tmpfoo', inTmp.writableRoots, '/home/ana')).toBe(false);
  });
});

describe('buildBwrapArgs: what it leaves out', () => {
  const bindsOf = (argv: readonly string[], flag: string): string[] =>
    argv.flatMap((item, i) => (item === flag ? [argv[i + 1] as string] : []));

  it('adds no mask, read-only bind or home bind that nothing asked for', () => {
    const argv = buildBwrapArgs(request, '/home/ana');
    expect(argv).not.toContain('/dev/null');
    expect(argv).not.toContain('--ro-bind-try');
    expect(bindsOf(argv, '--ro-bind')).toEqual(['/']);
  });

  it('never brings the host /tmp back over the private one, even when it is the HOME', () => {
    const argv = buildBwrapArgs(request, '/tmp');
    expect(bindsOf(argv, '--ro-bind')).toEqual(['/']);
    expect(bindsOf(argv, '--bind-try')).not.toContain('/tmp');
  });

  it('binds only visible roots the private /tmp would hide, parents first, none inside the HOME', () => {
    const argv = buildBwrapArgs(
      { ...request, visibleRoots: ['/tmp/a/b', '/srv/data', '/tmp/a', '/tmp/h/ws', '/tmp'] },
      '/tmp/h',
    );
    expect(bindsOf(argv, '--ro-bind-try')).toEqual(['/tmp/a', '/tmp/a/b']);
  });
});

describe('what code nobody reviewed sees (codeView)', () => {
  const masks = [{ path: '/home/ana/.local/share/keyrings', kind: 'dir' as const }];
  const argv = buildBwrapArgs(
    {
      ...request,
      writableRoots: [],
      visibleRoots: ['/tmp/ws', '/srv/data'],
      codeView: {
        places: ['/home/ana/code/app', '/srv/data/app'],
        masked: [
          { path: '/home/ana/code/app/.env', kind: 'file' },
          { path: '/home/ana/code/app/.git', kind: 'dir' },
        ],
      },
      env: {
        PATH: '/home/ana/.nvm/versions/node/v20/bin:/usr/bin:/home/ana/.local/bin:/home/ana:/srv/pyenv/shims:/snap/bin',
      },
    },
    '/home/ana',
    masks,
  );
  const views = argv.flatMap((item, i) => (item === '--ro-bind-try' ? [argv[i + 1] ?? ''] : []));
  const system = ['/usr', '/bin', '/sbin', '/etc', '/sys', '/opt', '/nix'];

  it('is an empty root with the system parts, never the host /', () => {
    expect(find(argv, '--ro-bind', '/', '/')).toBe(-1);
    for (const part of ['/usr', '/etc', '/lib', '/bin']) expect(views).toContain(part);
    for (const data of ['/srv', '/mnt', '/media', '/var', '/home', '/work', '/tmp/ws'])
      expect(views).not.toContain(data);
  });

  it('shows an empty home with its work tree and the tool directories on PATH, and the named places elsewhere', () => {
    const own = views.filter((view) => !system.includes(view) && !view.startsWith('/lib'));
    // ~/.local holds python's user site (~/.local/lib) too; the home itself on PATH brings nothing.
    expect(own).toEqual([
      '/snap/bin',
      '/srv/pyenv',
      '/srv/data/app',
      '/home/ana/.nvm',
      '/home/ana/.local',
      '/home/ana/code/app',
    ]);
    expect(find(argv, '--ro-bind-try', '/home/ana/code/app')).toBeGreaterThan(
      find(argv, '--tmpfs', '/home/ana'),
    );
  });

  it('hides the work tree credential files and history after its binds, and everything is read-only', () => {
    const tree = find(argv, '--ro-bind-try', '/home/ana/code/app');
    expect(find(argv, '--ro-bind', '/dev/null', '/home/ana/code/app/.env')).toBeGreaterThan(tree);
    expect(find(argv, '--tmpfs', '/home/ana/code/app/.git')).toBeGreaterThan(tree);
    const store = find(argv, '--tmpfs', '/home/ana/.local/share/keyrings');
    expect(store).toBeGreaterThan(find(argv, '--ro-bind-try', '/home/ana/.local'));
    expect(find(argv, '--remount-ro', '/home/ana')).toBeGreaterThan(store);
    expect(find(argv, '--remount-ro', '/')).toBeGreaterThan(store);
  });
});
