// "Which process holds port 3000?": a line that only lists processes or sockets runs without a
// card and sees the host's (not the sandbox's empty namespaces); a line that signals them sees
// them after a card; anything else in the line keeps every namespace private.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { hasProgram } from '../helpers/tools.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

// A duration no other process on the machine is likely to sleep for: its mark in `ps`.
const mark = '4321.987';
let sleeper: ChildProcess;
let server: Server;
let port: number;
let pipeline: Pipeline;

beforeAll(async () => {
  sleeper = spawn('sleep', [mark], { stdio: 'ignore' });
  server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  port = typeof address === 'object' && address !== null ? address.port : 0;
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
});
afterAll(() => {
  sleeper.kill();
  server.close();
  pipeline.close();
});

function decide(command: string, approvedBy?: string): Promise<PipelineOutcome> {
  const extra = approvedBy === undefined ? {} : { approvedBy };
  return pipeline.evaluate(call('shell_exec', { command }, 'which process is that?', extra));
}

async function output(outcome: PipelineOutcome): Promise<string> {
  const result = await pipeline.invoke(outcome, new AbortController().signal);
  expect(result).toMatchObject({ ok: true });
  return result.ok ? String((result.result as { stdout: string }).stdout) : '';
}

function hostProcessesOf(outcome: PipelineOutcome): boolean | undefined {
  return outcome.decision === 'allow' && outcome.grant.by !== 'policy'
    ? outcome.grant.hostProcesses
    : undefined;
}

describe.skipIf(!hasProgram('ps'))('listing processes (needs procps)', () => {
  it('sees a host process without a card', async () => {
    const outcome = await decide(`ps -eo pid,args | grep ${mark}`);
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'read-only: ps, grep' });
    expect(hostProcessesOf(outcome)).toBe(true);
    expect(await output(outcome)).toContain(`${String(sleeper.pid)} sleep ${mark}`);
  });

  it('keeps the namespaces private when the line does more than list', async () => {
    const outcome = await decide(`ps -eo pid,args; cat /etc/hostname`);
    expect(hostProcessesOf(outcome)).toBe(false);
    expect(await output(outcome)).not.toContain(mark);
  });

  it('never shows the environment of the host processes without a card', async () => {
    for (const command of ['ps auxe', 'ps e', `ps -o pid e ${String(sleeper.pid)}`])
      expect((await decide(command)).decision, command).not.toBe('allow');
    expect((await decide(`cat /proc/${String(sleeper.pid)}/environ`)).decision).toBe('deny');
  });

  it('signals a host process after a card', async () => {
    const victim = spawn('sleep', [`${mark}1`], { stdio: 'ignore' });
    const exited = once(victim, 'exit');
    const outcome = await decide(`kill ${String(victim.pid)}`, 'local:1');
    expect(hostProcessesOf(outcome)).toBe(true);
    await output(outcome);
    expect(await exited).toEqual([null, 'SIGTERM']);
  });
});

describe.skipIf(!hasProgram('pgrep', '-V'))('matching command lines (pgrep -f, pkill -f)', () => {
  it('pgrep -af finds the host process, and never its own sandbox by the pattern it was given', async () => {
    const outcome = await decide(`pgrep -af "sleep ${mark}"`);
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'read-only: pgrep' });
    const lines = (await output(outcome)).trim().split('\n');
    expect(lines).toEqual([`${String(sleeper.pid)} sleep ${mark}`]);
  });

  it('an approved pkill -f ends the host process instead of its own sandbox', async () => {
    const victim = spawn('sleep', [`${mark}2`], { stdio: 'ignore' });
    const exited = once(victim, 'exit');
    const outcome = await decide(`pkill -f "sleep ${mark}2"`, 'local:1');
    expect(outcome).toMatchObject({ decision: 'allow' });
    const result = await pipeline.invoke(outcome, new AbortController().signal);
    expect(result).toMatchObject({ ok: true, result: { exit_code: 0 } });
    expect(await exited).toEqual([null, 'SIGTERM']);
  });
});

describe.skipIf(!hasProgram('ip', '-V'))('listing network interfaces (needs iproute2)', () => {
  it("sees the host's interfaces without a card, and never changes one", async () => {
    const outcome = await decide('ip -br link | cut -d" " -f1');
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'read-only: ip, cut' });
    expect(hostProcessesOf(outcome)).toBe(true);
    const host = execFileSync('ip', ['-br', 'link'], { encoding: 'utf8' })
      .split('\n')
      .map((line) => line.split(' ')[0])
      .filter((name) => name !== '');
    expect((await output(outcome)).trim().split('\n')).toEqual(host);
    for (const command of ['ip link set lo down', 'ip -batch cmds.txt', 'ip netns exec x id'])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });
});

describe.skipIf(!hasProgram('ss', '-V'))('listing sockets (needs iproute2)', () => {
  it('sees a host listening socket without a card', async () => {
    const outcome = await decide(`ss -ltn | grep ${String(port)}`);
    expect(outcome).toMatchObject({ decision: 'allow' });
    expect(await output(outcome)).toContain(`127.0.0.1:${String(port)}`);
  });
});
