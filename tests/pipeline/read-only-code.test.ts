// Code nobody reviewed (an interpreter's inline code, a standard library tool run with -m,
// project code while files written without a card are unreviewed) runs without a card only
// where it can lose nothing and leak nothing: nothing writable but its private /tmp, no network,
// protected places and host sockets hidden. Real pipeline, real files, real bubblewrap; each run
// is decided on a harmless line and then given the hostile one, so the sandbox alone is tested.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { HOST_SOCKET_PLACES } from '../../constitution/protected.ts';
import { hostSocketMasks } from '../../executors/sandbox/secret-masks.ts';
import { exists } from '../helpers/exists.ts';
import { call, projectAndPipeline } from './pipeline-helpers.ts';

const home = process.env.HOME ?? '';
let project: string;
let pipeline: Pipeline;
const servers: Server[] = [];

beforeEach(async () => {
  ({ project, pipeline } = await projectAndPipeline());
});
afterEach(async () => {
  pipeline.close();
  await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
});

function decide(command: string, extra: Record<string, unknown> = {}): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command, cwd: project, ...extra }));
}

/** Decide `decided`, which must run read-only without a card; run `ran` under that grant. */
async function runReadOnly(decided: string, ran = decided): Promise<Record<string, unknown>> {
  const outcome = await decide(decided);
  expect(outcome, decided).toMatchObject({
    decision: 'allow',
    reason: expect.stringMatching(/^read-only code: /),
    grant: { tier: 'read-only-code', writable: [], readOnlyWithin: [], records: [] },
  });
  const result = await pipeline.invoke(
    { ...outcome, args: { command: ran, cwd: project } },
    new AbortController().signal,
  );
  expect(result).toMatchObject({ ok: true });
  return result.ok ? (result.result as Record<string, unknown>) : {};
}

/** A real unix socket that answers "hello" to whoever connects. */
async function listen(path: string): Promise<void> {
  const server = createServer((socket) => socket.end('hello'));
  servers.push(server);
  await new Promise<void>((done) => server.listen(path, done));
}

/** node code that connects to $1 (a socket path) or to 127.0.0.1:$1 and prints what happened. */
const CONNECT = `node -e "require('node:net').connect(...(isNaN(process.argv[1]) ? [process.argv[1]] : [Number(process.argv[1]), '127.0.0.1'])).on('data', (d) => console.log('reached', String(d))).on('error', (e) => console.log('refused', e.code))"`;

describe('inline code without a card', () => {
  it('cannot write the home or the work tree, and says why the write failed', async () => {
    for (const target of [join(home, 'pwned'), join(project, 'pwned')]) {
      const result = await runReadOnly(
        `python3 -c "print(1)"`,
        `python3 -c "open('${target}', 'w').write('x')"`,
      );
      expect(result.exit_code).not.toBe(0);
      expect(String(result.stderr)).toContain('Read-only file system');
      expect(result.note).toMatch(/ran read-only without approval.*read-only code: python -c/);
      expect(await exists(target)).toBe(false);
    }
  });

  it('cannot read a planted ~/.ssh/id_rsa or ~/.aws/credentials', async () => {
    await mkdir(join(home, '.ssh'), { recursive: true });
    await mkdir(join(home, '.aws'), { recursive: true });
    await writeFile(join(home, '.ssh', 'id_rsa'), 'PLANTED-SSH-KEY\n');
    await writeFile(join(home, '.aws', 'credentials'), 'aws_secret_access_key = PLANTED\n');
    // The paths are built at run time: no parse can see them, only the sandbox stops the read.
    const read = `python3 -c "import os,sys; h=os.environ['HOME']; [print(open(h+p).read()) for p in sys.argv[1:] if os.path.isfile(h+p)]" /.ss''h/id_rsa /.a''ws/credentials`;
    const result = await runReadOnly(`python3 -c "print(1)"`, read);
    expect(String(result.stdout)).not.toContain('PLANTED');
  });

  it('hides a credential file of its work tree, one there at the decision and one that came after it', async () => {
    const key = `sk-proj-${'a1B2c3D4e5'.repeat(4)}`;
    const decided = await decide(`python3 -c "print(1)"`);
    await writeFile(join(project, '.env'), `OPENAI_API_KEY=${key}\nDEBUG=1\n`);
    // The code could print the whole tree in any form: the sandbox hides the file instead of asking.
    expect(await decide(`python3 -c "print(1)"`)).toMatchObject({
      decision: 'allow',
      grant: {
        codeView: {
          masked: [
            { path: join(project, '.env'), kind: 'file' },
            { path: join(project, '.git'), kind: 'dir' },
          ],
        },
      },
    });
    // Written between the decision and the run, the file is hidden by its name at the run.
    const result = await pipeline.invoke(
      { ...decided, args: { command: `python3 -c "print(open('.e'+'nv').read())"`, cwd: project } },
      new AbortController().signal,
    );
    expect(result).toMatchObject({ ok: true });
    const output = result.ok ? (result.result as Record<string, unknown>) : {};
    expect(String(output.stdout)).not.toContain('DEBUG=1');
    expect(String(output.stdout)).not.toContain(key);
    expect(output.exit_code).not.toBe(0);
  });

  it('cannot reach the network, even a server on the host loopback', async () => {
    const server = createServer((socket) => socket.end('hello'));
    servers.push(server);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const result = await runReadOnly(`node -e "1"`, `${CONNECT} ${String(port)}`);
    expect(String(result.stdout)).toMatch(/^refused/);
  });

  it('cannot connect to a container engine socket in the home (~/.docker/run/docker.sock)', async () => {
    const dir = join(home, '.docker', 'run');
    await mkdir(dir, { recursive: true });
    const socket = join(dir, 'docker.sock');
    await listen(socket);
    const hidden = await runReadOnly(`node -e "1"`, `${CONNECT} ${socket}`);
    expect(String(hidden.stdout)).toMatch(/^refused/);
    // The same code, approved, reaches it: the mask is what stopped it.
    const approved = await pipeline.evaluate(
      call('shell_exec', { command: `${CONNECT} ${socket}`, cwd: project }, 'docker', {
        approvedBy: 'local:1',
      }),
    );
    const reached = await pipeline.invoke(approved, new AbortController().signal);
    expect(reached).toMatchObject({ ok: true, result: { stdout: 'reached hello\n' } });
  });

  it('hides every known container engine place in the home that exists', async () => {
    for (const place of HOST_SOCKET_PLACES.home)
      await mkdir(join(home, place), { recursive: true });
    const masked = (await hostSocketMasks(process.env)).map((mask) => mask.path);
    for (const place of HOST_SOCKET_PLACES.home) expect(masked).toContain(join(home, place));
  });

  it('compiles python with py_compile, its bytecode kept out of the read-only tree', async () => {
    await mkdir(join(project, 'pkg'));
    await writeFile(join(project, 'pkg', 'a.py'), 'import json\nprint(json.dumps(1))\n');
    await writeFile(join(project, 'pkg', 'b.py'), 'x = 1\n');
    const result = await runReadOnly('python3 -m py_compile pkg/*.py && echo OK');
    expect(result).toMatchObject({ exit_code: 0, stdout: 'OK\n' });
    expect(await readdir(join(project, 'pkg'))).toEqual(['a.py', 'b.py']);
    const broken = join(project, 'pkg', 'b.py');
    await writeFile(broken, 'x = (\n');
    expect(await runReadOnly('python3 -m py_compile pkg/b.py')).toMatchObject({
      exit_code: 1,
      stderr: expect.stringContaining('SyntaxError'),
    });
  });

  it('reads the project as the person asked (python3 -c, node -p, perl -ne)', async () => {
    await writeFile(join(project, 'config.js'), 'module.exports = { port: 8080 };\n');
    const version = `python3 -c "import json; print(json.load(open('package.json'))['version'])"`;
    expect(await runReadOnly(version)).toMatchObject({ exit_code: 0, stdout: '1.2.3\n' });
    expect(await runReadOnly(`node -p "require('./config.js').port"`)).toMatchObject({
      stdout: '8080\n',
    });
    expect(await runReadOnly(`perl -ne 'print if /version/' package.json`)).toMatchObject({
      stdout: '{"version":"1.2.3"}\n',
    });
  });
});

describe('unreviewed project code without a card', () => {
  it('runs a script the model wrote read-only: its writes fail and the file stays unreviewed', async () => {
    const wrote = await decide(
      `mkdir -p scripts && printf 'open("out.txt", "w").write("x")\\nprint("counted")\\n' > scripts/count.py`,
    );
    expect(wrote).toMatchObject({ decision: 'allow', grant: { tier: 'workspace' } });
    await pipeline.invoke(wrote, new AbortController().signal);
    const result = await runReadOnly('python3 scripts/count.py');
    expect(String(result.stderr)).toContain('Read-only file system');
    expect(await exists(join(project, 'out.txt'))).toBe(false);
    // Nothing was reviewed: asked to run able to write, it names the script.
    const card = await decide('python3 scripts/count.py', { request_approval: true });
    expect(card).toMatchObject({ decision: 'ask' });
    expect(card.reason).toMatch(/unreviewed: scripts\/count\.py/);
  });

  it('runs npm test over an unreviewed test file read-only', async () => {
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ scripts: { test: 'node test.js' } }),
    );
    const wrote = await decide(`printf 'require("fs").writeFileSync("ran.txt", "x")\\n' > test.js`);
    await pipeline.invoke(wrote, new AbortController().signal);
    const result = await runReadOnly('npm test');
    expect(String(result.stderr)).toContain('EROFS');
    expect(result.note).toMatch(/ran read-only without approval.*unreviewed: test\.js/);
    expect(await exists(join(project, 'ran.txt'))).toBe(false);
  });
});

describe('code that keeps its card', () => {
  it('asks for a write on the line, a pipe into a shell, stdin, an install, another module or code that changes things', async () => {
    await writeFile(join(project, 'out.txt'), 'keep me\n');
    await writeFile(join(project, 'script.py'), 'print(1)\n');
    for (const command of [
      'python3 script.py > out.txt',
      `python3 -c 'print(1)' > out.txt`,
      `python3 -c 'print("ls")' | sh`,
      'pip install requests',
      'python3 -m pip install requests',
      'python3 -m http.server',
      'python3 - < script.py',
      'cat script.py | python3',
      'python3 -i -c 1',
      `perl -i -pe 's/a/b/' out.txt`,
      `node -r ./hook.js -e 1`,
      `node -e 1 --require ./hook.js`,
      // Code that says it writes, deletes, runs programs or connects: it would only fail.
      `node -e "require('net').connect(80, 'example.com')"`,
      `python3 -c "import os; [open(p, 'wb').write(b'') for p in os.listdir('.')]"`,
      `python3 -c "import shutil; shutil.rmtree('src')"`,
      `python3 -c "import subprocess; subprocess.run(['ls'])"`,
      `perl -e 'unlink glob "*.txt"'`,
      // A file that may hold a credential is read with a card, by code too.
      `python3 -c "print(open('.env').read())"`,
      `node -e "console.log(require('fs').readFileSync('.env', 'utf8'))"`,
      'python3 -m json.tool secrets.json',
      `ruby -e 'File.write("x", "y")'`,
    ]) {
      expect(await decide(command), command).toMatchObject({ decision: 'ask' });
    }
  });
});
