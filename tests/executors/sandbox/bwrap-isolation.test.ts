// The sandbox for real: bubblewrap processes against planted secrets, files and a local server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellExec } from '../../../executors/shell-exec.ts';
import { makeContext, makeTempDir } from '../make-context.ts';
import { processesWith, waitFor } from './processes.ts';
import { canRead } from '../../helpers/tools.ts';

const home = process.env.HOME ?? '/nonexistent';
const secret = 'FAKE-PRIVATE-KEY-7f3a';
let server: Server;
let port: number;

beforeAll(async () => {
  await mkdir(join(home, '.ssh'), { recursive: true });
  await writeFile(join(home, '.ssh', 'id_rsa'), secret);
  await writeFile(join(home, '.netrc'), `machine x password ${secret}`);
  server = createServer((_request, response) => response.end('hello from the host'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const readSecrets = 'cat ~/.ssh/id_rsa ~/.netrc; ls -A ~/.ssh';

describe('bubblewrap sandbox', () => {
  it('cannot read ~/.ssh or ~/.netrc even with the home writable, while bare mode can', async () => {
    const sandboxed = await shellExec.run(
      { command: readSecrets },
      await makeContext({ roots: { write: ['~'] } }),
    );
    expect(sandboxed.sandbox).toBe('bwrap');
    // Nothing at all: the key unreadable, the .ssh directory an empty tmpfs.
    expect(sandboxed.stdout).toBe('');
    expect(sandboxed.stderr).toMatch(/id_rsa: No such file/);
    // The control: the same command unsandboxed does see the planted key.
    const bare = await shellExec.run(
      { command: readSecrets },
      await makeContext({ sandbox: { mode: 'off' } }),
    );
    expect(bare.stdout).toContain(secret);
  });

  it('cannot read /etc/shadow, even as root', async () => {
    const sandboxed = await shellExec.run({ command: 'cat /etc/shadow' }, await makeContext());
    expect(sandboxed.stdout).toBe('');
    expect(sandboxed.exit_code).not.toBe(0);
  });

  // The control: only a user who may read /etc/shadow (root) shows the mask is what hides it.
  it.skipIf(!canRead('/etc/shadow'))(
    'bare mode reads /etc/shadow where the user may (needs root)',
    async () => {
      const command = 'cat /etc/shadow';
      const bare = await shellExec.run(
        { command },
        await makeContext({ sandbox: { mode: 'off' } }),
      );
      expect(bare.stdout).toMatch(/^root:/);
    },
  );

  it('cannot lift the masks: no capabilities to unmount', async () => {
    const ctx = await makeContext({ roots: { write: ['~'] } });
    const result = await shellExec.run({ command: 'umount ~/.ssh; cat ~/.ssh/id_rsa' }, ctx);
    expect(result.stdout).not.toContain(secret);
    expect(await readFile(join(home, '.ssh', 'id_rsa'), 'utf8')).toBe(secret);
  });

  it('writes inside the workspace and nowhere else', async () => {
    const workspace = await makeTempDir('ws-');
    const outside = await makeTempDir('outside-');
    const ctx = await makeContext({ roots: { write: [workspace] } });
    const result = await shellExec.run(
      {
        command:
          'echo in > "$1/in.txt"; echo out > "$2/out.txt"; echo home > ~/home.txt; echo etc > /etc/custode-probe',
        args: [workspace, outside],
      },
      ctx,
    );
    expect(result.stderr).toMatch(/Read-only file system/);
    expect(await readFile(join(workspace, 'in.txt'), 'utf8')).toBe('in\n');
    expect(await readdir(outside)).toEqual([]);
    await expect(readFile(join(home, 'home.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(readFile('/etc/custode-probe')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('explains a cwd in the host /tmp that the private /tmp hides', async () => {
    const ctx = await makeContext({ roots: { write: ['~', '/tmp'] } });
    const hidden = await mkdtemp(join(tmpdir(), 'custode-hidden-'));
    try {
      await expect(shellExec.run({ command: 'pwd', cwd: hidden }, ctx)).rejects.toThrow(
        /private, empty \/tmp/,
      );
    } finally {
      await rm(hidden, { recursive: true });
    }
  });

  it('has a private /tmp that the host never sees', async () => {
    const ctx = await makeContext();
    const name = `custode-private-${String(process.pid)}`;
    const result = await shellExec.run(
      { command: `echo x > /tmp/${name} && cat /tmp/${name}` },
      ctx,
    );
    expect(result).toMatchObject({ stdout: 'x\n', exit_code: 0 });
    await expect(readFile(join('/tmp', name))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  const fetchLocal =
    'exec 3<>/dev/tcp/127.0.0.1/$1 && printf "GET / HTTP/1.0\\r\\n\\r\\n" >&3 && cat <&3';

  it('cannot reach the network by default', async () => {
    const ctx = await makeContext();
    const result = await shellExec.run({ command: fetchLocal, args: [String(port)] }, ctx);
    expect(result.exit_code).not.toBe(0);
    expect(result.stdout).not.toContain('hello from the host');
  });

  it('reaches the network when sandbox.network is true', async () => {
    const ctx = await makeContext({ sandbox: { network: true } });
    const result = await shellExec.run({ command: fetchLocal, args: [String(port)] }, ctx);
    expect(result.stdout).toContain('hello from the host');
    expect(result.exit_code).toBe(0);
  });

  it('kills the sandboxed process when the call is aborted', async () => {
    const workspace = await makeTempDir('ws-');
    const controller = new AbortController();
    const ctx = await makeContext({ roots: { write: [workspace] } }, { signal: controller.signal });
    const tag = `4242.${String(process.pid)}`;
    const running = shellExec.run(
      { command: `touch "$1/started"; exec sleep ${tag}`, args: [workspace] },
      ctx,
    );
    await waitFor(async () => (await readdir(workspace)).includes('started'));
    await waitFor(async () => (await processesWith(tag)) > 0);
    controller.abort(new Error('the person cancelled'));
    await expect(running).rejects.toThrow('the person cancelled');
    await waitFor(async () => (await processesWith(tag)) === 0);
    expect(await processesWith(tag)).toBe(0);
  });
});

describe('bubblewrap sandbox and Custode state', () => {
  it('cannot plant a fake audit log before the daemon writes its first one', async () => {
    const xdg = await makeTempDir('xdg-');
    const ctx = await makeContext({ roots: { write: [xdg] } });
    const env = { ...ctx.env, XDG_DATA_HOME: xdg };
    await shellExec.run(
      {
        command:
          'mkdir -p "$XDG_DATA_HOME/custode/vaglio" && echo forged > "$XDG_DATA_HOME/custode/vaglio/2026-11.jsonl"',
      },
      { ...ctx, env },
    );
    expect(await readdir(join(xdg, 'custode'))).toEqual([]);
  });

  it('masks the audit log and state wherever XDG_* puts them', async () => {
    const xdg = await makeTempDir('xdg-');
    await mkdir(join(xdg, 'custode', 'vaglio'), { recursive: true });
    await writeFile(join(xdg, 'custode', 'vaglio', '2026-11.jsonl'), `{"secret":"${secret}"}\n`);
    const ctx = await makeContext({ roots: { write: [xdg] } });
    const env = { ...ctx.env, XDG_DATA_HOME: xdg };
    const result = await shellExec.run(
      {
        command:
          'cat "$XDG_DATA_HOME/custode/vaglio/2026-11.jsonl"; echo tamper > "$XDG_DATA_HOME/custode/x"',
      },
      { ...ctx, env },
    );
    expect(result.stdout).not.toContain(secret);
    await expect(readFile(join(xdg, 'custode', 'x'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
