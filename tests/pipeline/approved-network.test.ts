// A card that says a command needs the network leads to a run that has it: an approved curl or
// git pull must not fail at once in a sandbox without one. What needs none still gets none.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

let server: Server;
let port: number;
let pipeline: Pipeline;

beforeAll(async () => {
  server = createServer((_request, response) => response.end('hello from the host'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  pipeline = await pipelineWith();
});
afterAll(async () => {
  pipeline.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function approvedRun(command: string): Promise<{ grant: unknown; stdout: string }> {
  const outcome = await pipeline.evaluate(
    call('shell_exec', { command }, 'fetch it', { approvedBy: 'local:1' }),
  );
  if (outcome.decision !== 'allow') throw new Error(`not allowed: ${outcome.reason}`);
  const ran = await pipeline.invoke(outcome, new AbortController().signal);
  const result = ran.ok ? (ran.result as { stdout: string }) : { stdout: '' };
  return { grant: outcome.grant, stdout: result.stdout };
}

describe('approved commands that need the network', () => {
  it('an approved curl reaches the server its card named', async () => {
    const { grant, stdout } = await approvedRun(`curl -s http://127.0.0.1:${String(port)}/`);
    expect(grant).toMatchObject({ by: 'person', network: true });
    expect(stdout).toBe('hello from the host');
  });

  it('an approved command that needs no network still runs without one', async () => {
    const probe = `exec 3<>/dev/tcp/127.0.0.1/${String(port)} && echo connected || echo refused`;
    const { grant, stdout } = await approvedRun(probe);
    expect(grant).toMatchObject({ by: 'person', network: false });
    expect(stdout.trim()).toBe('refused');
  });
});
