// Project code never runs uncarded able to write over files that calls without a card wrote: the
// model must not approve its own program. It runs read-only until a card names the files and a
// person approves. Real pipeline, real files, real bubblewrap.
import { execFileSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import {
  LOST_RECORD,
  openUnreviewedWrites,
  unreviewedWritesFile,
} from '../../runtime/pipeline/workspace/unreviewed.ts';
import { createRuleStore } from '../../runtime/approvals/rule-store.ts';
import { createLogger } from '../../runtime/log/logger.ts';
import { parseConfig } from '../../runtime/config.ts';
import { createPipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';
import { exists } from '../helpers/exists.ts';

const intent = 'build my project';
let project: string;
/** Each test its own state dir: the record of unreviewed writes is one per state dir. */
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  project = await makeTempDir('app-');
  env = { ...process.env, XDG_STATE_HOME: await makeTempDir('state-') };
  execFileSync('git', ['init', '-q', project]);
});

async function withPipeline(use: (pipeline: Pipeline) => Promise<void>): Promise<void> {
  const pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } }, env);
  try {
    await use(pipeline);
  } finally {
    pipeline.close();
  }
}

/** The call, or, approved by `approvedBy`, the call the model makes to ask (request_approval). */
function shell(pipeline: Pipeline, command: string, approvedBy?: string): Promise<PipelineOutcome> {
  if (approvedBy === undefined)
    return pipeline.evaluate(call('shell_exec', { command, cwd: project }, intent));
  const args = { command, cwd: project, request_approval: true };
  return pipeline.evaluate(call('shell_exec', args, intent, { approvedBy }));
}

/** The card the model gets when it asks to run `command` able to write. */
function asked(pipeline: Pipeline, command: string): Promise<PipelineOutcome> {
  const args = { command, cwd: project, request_approval: true };
  return pipeline.evaluate(call('shell_exec', args, intent));
}

/** Runs without a card, read-only: nothing writable but its private /tmp. */
const readOnly = { decision: 'allow', grant: { tier: 'read-only-code', writable: [] } };

async function run(pipeline: Pipeline, outcome: PipelineOutcome): Promise<void> {
  expect(outcome.decision).toBe('allow');
  const ran = await pipeline.invoke(outcome, new AbortController().signal);
  expect(ran).toMatchObject({ ok: true, result: { exit_code: 0 } });
}

describe('unreviewed writes', () => {
  it('runs make over a Makefile a call without a card wrote read-only, naming it, and its write fails', async () => {
    await withPipeline(async (pipeline) => {
      await run(pipeline, await shell(pipeline, "echo 'all:; touch pwned' > Makefile"));
      const make = await shell(pipeline, 'make');
      expect(make).toMatchObject(readOnly);
      expect(make.reason).toMatch(
        /^read-only code: make \(files written without approval are unreviewed: Makefile\)/,
      );
      const ran = await pipeline.invoke(make, new AbortController().signal);
      expect(ran).toMatchObject({
        ok: true,
        result: { note: expect.stringContaining('ran read-only without approval') },
      });
      expect(await exists(join(project, 'pwned'))).toBe(false);
      const card = await asked(pipeline, 'make');
      expect(card).toMatchObject({ decision: 'ask' });
      expect(card.reason).toMatch(/written without approval are unreviewed: Makefile/);
    });
  });

  it('only counts what ran: a decision alone (custode check) records nothing', async () => {
    await withPipeline(async (pipeline) => {
      expect(await shell(pipeline, "echo 'all:; true' > Makefile")).toMatchObject({
        decision: 'allow',
      });
      expect(await shell(pipeline, 'make')).toMatchObject({
        decision: 'allow',
        reason: 'workspace: make',
      });
    });
  });

  it('is shared at once by two processes on one state dir (a daemon and a terminal chat)', async () => {
    await withPipeline(async (daemon) => {
      await withPipeline(async (chat) => {
        await run(chat, await shell(chat, "echo 'all:; touch pwned' > Makefile"));
        expect(await shell(daemon, 'make')).toMatchObject(readOnly);
        await writeFile(join(project, 'Makefile'), 'all:\n\t@true\n');
        await run(daemon, await shell(daemon, 'make', 'local:1'));
        expect(await shell(chat, 'make')).toMatchObject({ decision: 'allow' });
      });
    });
  });

  it('keeps the record across a restart, until a person approves project code there', async () => {
    await withPipeline(async (pipeline) => {
      await run(pipeline, await shell(pipeline, "echo 'all:; @echo built' > Makefile"));
    });
    await withPipeline(async (pipeline) => {
      expect(await shell(pipeline, 'make')).toMatchObject(readOnly);
      await run(pipeline, await shell(pipeline, 'make', 'local:1'));
      expect(await shell(pipeline, 'make')).toMatchObject({
        decision: 'allow',
        reason: 'workspace: make',
      });
    });
  });

  it('keeps a file that is gone (git can put it back), and one outside the tree', async () => {
    await withPipeline(async (pipeline) => {
      await run(pipeline, await shell(pipeline, 'touch notes.txt'));
      await rm(join(project, 'notes.txt'));
      expect(await shell(pipeline, 'make')).toMatchObject(readOnly);
      await writeFile(join(project, 'Makefile'), 'all:\n\t@true\n');
      await run(pipeline, await shell(pipeline, 'make -s', 'local:1'));
      expect(await shell(pipeline, 'make -s')).toMatchObject({ decision: 'allow' });
      const above = `${project}-above.json`;
      await run(pipeline, await shell(pipeline, `echo '{}' > ${above}`));
      const npm = await shell(pipeline, 'npm test');
      expect(npm).toMatchObject(readOnly);
      expect(npm.reason).toContain(basename(above));
    });
  });

  it('fails closed past its size instead of forgetting the oldest', async () => {
    const file = join(await makeTempDir('record-'), 'unreviewed.json');
    const record = openUnreviewedWrites(file, createLogger({ CUSTODE_LOG_LEVEL: 'silent' }));
    await record.record(['/w/Makefile']);
    await record.record(Array.from({ length: 10_000 }, (_, i) => `/w/f${String(i)}`));
    expect(record.pending()[0]).toMatch(/more than 10000 files/);
    const reloaded = openUnreviewedWrites(file, createLogger({ CUSTODE_LOG_LEVEL: 'silent' }));
    expect(reloaded.pending()).toHaveLength(1);
    await reloaded.clear();
    expect(reloaded.pending()).toEqual([]);
  });

  it('fails closed on a record it cannot read: project code runs read-only until an approval', async () => {
    await mkdir(join(env.XDG_STATE_HOME ?? '', 'custode'), { recursive: true });
    await writeFile(unreviewedWritesFile(env), '{not json');
    await withPipeline(async (pipeline) => {
      const make = await shell(pipeline, 'make -s');
      expect(make).toMatchObject(readOnly);
      expect(make.reason).toContain(LOST_RECORD);
      expect((await asked(pipeline, 'make -s')).reason).toContain(LOST_RECORD);
      await writeFile(join(project, 'Makefile'), 'all:\n\t@true\n');
      await run(pipeline, await shell(pipeline, 'make -s', 'local:1'));
      expect(await shell(pipeline, 'make -s')).toMatchObject({ decision: 'allow' });
    });
  });

  it('an always-allow rule for the runner does not let it write over unreviewed files', async () => {
    const rules = await createRuleStore(join(project, '..', 'rules-state'));
    const make = call('shell_exec', { command: 'make', cwd: project }, intent, {
      sender: 'local:1',
    });
    const rule = rules.propose(make);
    expect(rule).not.toBeNull();
    if (rule !== null) await rules.add(rule);
    expect(rules.match(make)).not.toBeNull();
    const pipeline = await createPipeline({
      config: parseConfig({ roots: { write: ['~', '/tmp'] } }),
      env,
      rules,
    });
    try {
      await run(pipeline, await shell(pipeline, 'touch notes.txt'));
      expect(await pipeline.evaluate(make)).toMatchObject(readOnly);
    } finally {
      pipeline.close();
    }
  });

  it("records what an always-allow rule let through: a file tool's path, or everything for a command", async () => {
    const state = join(project, '..', `rules-${String(Date.now())}`);
    const rules = await createRuleStore(state);
    const write = call('fs_write', { path: join(project, 'Makefile'), content: 'all:\n' }, intent, {
      sender: 'local:1',
    });
    const push = call('shell_exec', { command: 'git push', cwd: project }, intent, {
      sender: 'local:1',
    });
    for (const proposed of [write, push]) {
      const rule = rules.propose(proposed);
      expect(rule).not.toBeNull();
      if (rule !== null) await rules.add(rule);
    }
    const pipeline = await createPipeline({
      config: parseConfig({ roots: { write: ['~', '/tmp'] } }),
      env,
      rules,
    });
    try {
      await writeFile(join(project, 'notes.txt'), 'a\n');
      // An overwrite: a new file would run as the workspace tier's, before any rule.
      await writeFile(join(project, 'Makefile'), 'old:\n');
      const wrote = await pipeline.evaluate(write);
      expect(wrote).toMatchObject({ decision: 'allow', reason: expect.stringMatching(/^rule:/) });
      await pipeline.invoke(wrote, new AbortController().signal);
      const make = await asked(pipeline, 'make');
      expect(make.reason).toContain('Makefile');
      await writeFile(join(project, 'Makefile'), 'all:\n\t@true\n');
      await run(pipeline, await shell(pipeline, 'make', 'local:1'));
      const edited = await pipeline.evaluate(push);
      expect(edited).toMatchObject({ decision: 'allow', reason: expect.stringMatching(/^rule:/) });
      await pipeline.invoke(edited, new AbortController().signal);
      expect((await asked(pipeline, 'make')).reason).toContain('always-allow rule');
    } finally {
      pipeline.close();
    }
  });

  it('lets project code write nothing in a work tree whose .git is a file (a separate git dir)', async () => {
    await rm(join(project, '.git'), { recursive: true });
    execFileSync('git', ['init', '-q', '--separate-git-dir', join(project, 'gitdata'), project]);
    await withPipeline(async (pipeline) => {
      expect(await shell(pipeline, 'make')).toMatchObject({
        decision: 'allow',
        grant: { writable: [] },
      });
    });
  });

  it('runs no uncarded write it cannot record (a state dir that refuses the file)', async () => {
    const state = await makeTempDir('state-broken-');
    await writeFile(join(state, 'custode'), 'not a directory');
    const pipeline = await pipelineWith(
      { roots: { write: ['~', '/tmp'] } },
      { ...process.env, XDG_STATE_HOME: state },
    );
    try {
      const touch = await shell(pipeline, 'touch new.txt');
      expect(touch).toMatchObject({ decision: 'allow' });
      const ran = await pipeline.invoke(touch, new AbortController().signal);
      expect(ran).toMatchObject({ ok: false });
      expect(await exists(join(project, 'new.txt'))).toBe(false);
    } finally {
      pipeline.close();
    }
  });
});
