import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fsList } from '../../executors/fs-list.ts';
import { shellExec } from '../../executors/shell-exec.ts';
import type { ShellResult } from '../../executors/ops/shell-ops.ts';
import { parseConfig } from '../../runtime/config.ts';
import { decidePolicy, type PolicyInput } from '../../runtime/pipeline/policy.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import type { Verdict } from '../../runtime/vaglio/verdict.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith, writableOf } from './pipeline-helpers.ts';
import { exists } from '../helpers/exists.ts';

const intent = 'run a shell command to look at my project files';

const approving: Verdict = {
  approved: true,
  reason: 'approved: score 0.80',
  ts: new Date(0).toISOString(),
  judge_kind: 'rule-based-v1',
  score: 0.8,
  confidence: 1,
  blocked_by: null,
  signals: [],
};

function policyInput(extra: Partial<PolicyInput> = {}): PolicyInput {
  const ls = call('shell_exec', { command: 'ls' }, intent);
  return {
    call: ls,
    resolvedCall: ls,
    codeReview: () => null,
    executor: shellExec,
    config: parseConfig({}),
    verdict: approving,
    threshold: 0.3,
    rules: undefined,
    ruleRecords: [],
    needsNetwork: false,
    hostProcesses: { needed: false, listsOnly: false },
    readOnlyRule: null,
    fetch: null,
    workspace: null,
    guardSignals: [],
    ...extra,
  };
}

/** The same decision, with its args swapped: a catalogue hole that let a writing command through. */
function swapped(outcome: PipelineOutcome, command: string): PipelineOutcome {
  return { ...outcome, args: { command } };
}

function expectShellResult(value: unknown): ShellResult {
  expect(value).toMatchObject({ sandbox: 'bwrap' });
  return value as ShellResult;
}

describe('policy: the writable paths of an allow', () => {
  it('gives a read-only catalogue allow nothing to write', () => {
    expect(decidePolicy(policyInput({ readOnlyRule: 'ls' }))).toEqual({
      decision: 'allow',
      reason: 'read-only: ls',
      grant: {
        by: 'tier',
        tier: 'read-only',
        rule: 'ls',
        writable: [],
        readOnlyWithin: [],
        records: [],
        replaces: false,
        hostProcesses: false,
        viaProxy: false,
        pinned: [],
      },
    });
  });

  it('asks instead when no sandbox could hold the call to writing nothing', () => {
    const bare = parseConfig({ sandbox: { mode: 'off' } });
    const result = decidePolicy(policyInput({ readOnlyRule: 'ls', config: bare }));
    expect(result).toMatchObject({ decision: 'ask' });
    expect(result.reason).toMatch(/read-only: ls matched, but sandbox.mode is off/);
  });

  it('leaves a person-approved allow on the configured roots', () => {
    const approved = decidePolicy(
      policyInput({
        call: call('shell_exec', { command: 'ls' }, intent, { approvedBy: 'local:1' }),
      }),
    );
    expect(approved).toEqual({
      decision: 'allow',
      reason: 'approved by local:1',
      grant: { by: 'person', who: 'local:1', reviews: false, network: false, hostProcesses: false },
    });
  });

  it('leaves never_ask and non-critical allows on the configured roots', () => {
    const listing = call('fs_list', { path: '~' }, intent);
    const plain = decidePolicy(policyInput({ call: listing, executor: fsList }));
    const reason = 'policy: fs_list does not change state';
    expect(plain).toEqual({ decision: 'allow', reason, grant: { by: 'policy', rule: reason } });
    const never = decidePolicy(
      policyInput({
        call: listing,
        executor: fsList,
        config: parseConfig({ approvals: { never_ask: ['fs_list'] } }),
      }),
    );
    const listed = 'policy: approvals.never_ask lists fs_list';
    expect(never).toEqual({
      decision: 'allow',
      reason: listed,
      grant: { by: 'policy', rule: listed },
    });
  });
});

describe('an uncarded shell call runs in a sandbox that can write nothing', () => {
  it('runs a read-only call (cat) allowed by the catalogue', async () => {
    const work = await makeTempDir('ws-');
    await writeFile(join(work, 'notes.txt'), 'hello\n');
    const pipeline = await pipelineWith({ roots: { write: [work] } });
    try {
      const outcome = await pipeline.evaluate(
        call('shell_exec', { command: `cat ${join(work, 'notes.txt')}` }, intent),
      );
      expect(outcome).toMatchObject({
        decision: 'allow',
        reason: 'read-only: cat',
        grant: { writable: [] },
      });
      const ran = await pipeline.invoke(outcome, new AbortController().signal);
      expect(ran.ok).toBe(true);
      expect(expectShellResult(ran.ok ? ran.result : null)).toMatchObject({
        stdout: 'hello\n',
        exit_code: 0,
      });
    } finally {
      pipeline.close();
    }
  });

  it('keeps a writing command smuggled into a read-only decision from writing a root', async () => {
    const work = await makeTempDir('ws-');
    const pipeline = await pipelineWith({ roots: { write: [work, '~'] } });
    try {
      const outcome = await pipeline.evaluate(
        call('shell_exec', { command: 'ls', cwd: work }, intent),
      );
      expect(outcome).toMatchObject({
        decision: 'allow',
        reason: 'read-only: ls',
        grant: { writable: [] },
      });
      for (const target of [join(work, 'x'), '$HOME/x']) {
        const hole = swapped(outcome, `touch ${target}`);
        const ran = await pipeline.invoke(hole, new AbortController().signal);
        expect(ran.ok).toBe(true);
        const result = expectShellResult(ran.ok ? ran.result : null);
        expect(result.exit_code).not.toBe(0);
        expect(result.stderr).toMatch(/Read-only file system/);
      }
      expect(await exists(join(work, 'x'))).toBe(false);
      expect(await exists(join(process.env.HOME ?? '/nonexistent', 'x'))).toBe(false);
    } finally {
      pipeline.close();
    }
  });

  it('still gives the narrowed call its private, empty /tmp', async () => {
    const pipeline = await pipelineWith();
    try {
      const outcome = await pipeline.evaluate(call('shell_exec', { command: 'pwd' }, intent));
      expect(outcome).toMatchObject({ decision: 'allow', grant: { writable: [] } });
      const ran = await pipeline.invoke(
        swapped(outcome, 'echo kept > /tmp/scratch && cat /tmp/scratch'),
        new AbortController().signal,
      );
      expect(expectShellResult(ran.ok ? ran.result : null)).toMatchObject({
        stdout: 'kept\n',
        exit_code: 0,
      });
    } finally {
      pipeline.close();
    }
  });

  it('lets the same swap write when a person approved the call', async () => {
    const work = await makeTempDir('ws-');
    const pipeline = await pipelineWith({ roots: { write: [work] } });
    try {
      const outcome = await pipeline.evaluate(
        call('shell_exec', { command: 'ls', cwd: work }, intent, { approvedBy: 'local:1' }),
      );
      expect(outcome).toMatchObject({ decision: 'allow', reason: 'approved by local:1' });
      expect(writableOf(outcome)).toBeUndefined();
      const ran = await pipeline.invoke(
        swapped(outcome, `echo made > ${join(work, 'x')}`),
        new AbortController().signal,
      );
      expect(expectShellResult(ran.ok ? ran.result : null)).toMatchObject({ exit_code: 0 });
      expect(await readFile(join(work, 'x'), 'utf8')).toBe('made\n');
    } finally {
      pipeline.close();
    }
  });
});

describe('a workspace root under the host /tmp stays visible to a narrowed call', () => {
  it('reads it, and runs in it, read-only', async () => {
    const work = await realpath(await mkdtemp(join(tmpdir(), 'custode-ws-')));
    await writeFile(join(work, 'f.txt'), 'seen\n');
    const pipeline = await pipelineWith({ roots: { write: [work] } });
    try {
      for (const args of [
        { command: `cat ${join(work, 'f.txt')}` },
        { command: 'cat f.txt', cwd: work },
      ]) {
        const outcome = await pipeline.evaluate(call('shell_exec', args, intent));
        expect(outcome).toMatchObject({ decision: 'allow', grant: { writable: [] } });
        const ran = await pipeline.invoke(outcome, new AbortController().signal);
        expect(expectShellResult(ran.ok ? ran.result : null)).toMatchObject({
          stdout: 'seen\n',
          exit_code: 0,
        });
      }
      const outcome = await pipeline.evaluate(
        call('shell_exec', { command: 'ls', cwd: work }, intent),
      );
      const ran = await pipeline.invoke(
        swapped(outcome, `touch ${join(work, 'x')}`),
        new AbortController().signal,
      );
      expect(expectShellResult(ran.ok ? ran.result : null).stderr).toMatch(/Read-only file system/);
      expect(await exists(join(work, 'x'))).toBe(false);
    } finally {
      pipeline.close();
      await rm(work, { recursive: true, force: true });
    }
  });
});
