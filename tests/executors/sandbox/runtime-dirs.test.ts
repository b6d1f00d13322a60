// A call no person approved reaches no host unix socket: "no network" does not cover a socket
// on a read-only bind, and the Docker socket or the user's D-Bus runs anything outside.
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PipelineOutcome } from '../../../runtime/pipeline/types.ts';
import { makeTempDir } from '../make-context.ts';
import { call, pipelineWith } from '../../pipeline/pipeline-helpers.ts';

// Node is what runs Custode, so it is there: connect, and say whether it worked.
const connect = `node -e "require('node:net').connect(process.argv[1]).on('connect', () => { console.log('connected'); process.exit(0); }).on('error', (e) => { console.log('refused', e.code); process.exit(0); })" "$SOCK"`;

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server = undefined;
});

describe('runtime dirs', () => {
  it('hides $XDG_RUNTIME_DIR sockets from an uncarded call, not from an approved one', async () => {
    const runtime = await makeTempDir('run-');
    await mkdir(join(runtime, 'bus-dir'));
    const socketPath = join(runtime, 'bus-dir', 'bus.sock');
    server = createServer((socket) => socket.end());
    await new Promise<void>((done) => server?.listen(socketPath, done));
    const env = { ...process.env, XDG_RUNTIME_DIR: runtime };
    const pipeline = await pipelineWith({}, env);
    try {
      const command = connect.replace('$SOCK', socketPath);
      const uncarded = await pipeline.evaluate(call('shell_exec', { command: 'ls' }, 'look'));
      expect(uncarded).toMatchObject({ decision: 'allow', grant: { writable: [] } });
      const hole: PipelineOutcome = { ...uncarded, args: { command } };
      const hidden = await pipeline.invoke(hole, new AbortController().signal);
      expect(hidden).toMatchObject({
        ok: true,
        result: { stdout: expect.stringMatching(/^refused/) },
      });
      const approved = await pipeline.evaluate(
        call('shell_exec', { command }, 'look', { approvedBy: 'local:1' }),
      );
      const reached = await pipeline.invoke(approved, new AbortController().signal);
      expect(reached).toMatchObject({ ok: true, result: { stdout: 'connected\n' } });
    } finally {
      pipeline.close();
    }
  });
});
