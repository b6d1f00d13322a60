// Project code never runs uncarded over files that calls without a card wrote: the model must
// not approve its own program. Real pipeline, real files, real bubblewrap.
import { execFileSync } from 'node:child_process';
import { rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { LOST_RECORD, unreviewedWritesFile } from '../../runtime/pipeline/workspace/unreviewed.ts';
import { createRuleStore } from '../../runtime/approvals/rule-store.ts';
import { parseConfig } from '../../runtime/config.ts';
import { createPipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const intent = 'build my project';
let project: string;

beforeEach(async () => {
  project = await makeTempDir('app-');
  execFileSync('git', ['init', '-q', project]);
});

async function withPipeline(use: (pipeline: Pipeline) => Promise<void>): Promise<void> {
  const pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
  try {
    await use(pipeline);
  } finally {
    pipeline.close();
  }
}

function shell(pipeline: Pipeline, command: string, approvedBy?: string): Promise<PipelineOutcome> {
  const extra = approvedBy === undefined ? {} : { approvedBy };
  return pipeline.evaluate(call('shell_exec', { command, cwd: project }, intent, extra));
}

async function run(pipeline: Pipeline, outcome: PipelineOutcome): Promise<void> {
  expect(outcome.decision).toBe('allow');
  const ran = await pipeline.invoke(outcome, new AbortController().signal);
  expect(ran).toMatchObject({ ok: true, result: { exit_code: 0 } });
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

describe('unreviewed writes', () => {
  it('asks before make runs a Makefile a call without a card wrote, and names it', async () => {
    await withPipeline(async (pipeline) => {
      await run(pipeline, await shell(pipeline, "echo 'all:; touch pwned' > Makefile"));
      const make = await shell(pipeline, 'make');
      expect(make).toMatchObject({ decision: 'ask' });
      expect(make.reason).toMatch(/calls without approval wrote Makefile/);
      expect(await exists(join(project, 'pwned'))).toBe(false);
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

  it('keeps the record across a restart, until a person approves project code there', async () => {
    await withPipeline(async (pipeline) => {
      await run(pipeline, await shell(pipeline, "echo 'all:; @echo built' > Makefile"));
    });
    await withPipeline(async (pipeline) => {
      expect(await shell(pipeline, 'make')).toMatchObject({ decision: 'ask' });
      await run(pipeline, await shell(pipeline, 'make', 'local:1'));
      expect(await shell(pipeline, 'make')).toMatchObject({
        decision: 'allow',
        reason: 'workspace: make',
      });
    });
  });

  it('forgets a file once it is gone', async () => {
    await withPipeline(async (pipeline) => {
      await run(pipeline, await shell(pipeline, 'touch notes.txt'));
      expect(await shell(pipeline, 'make')).toMatchObject({ decision: 'ask' });
      await rm(join(project, 'notes.txt'));
      expect(await shell(pipeline, 'make')).toMatchObject({ decision: 'allow' });
    });
  });

  it('fails closed on a record it cannot read: every work tree asks until an approval', async () => {
    await writeFile(unreviewedWritesFile(process.env), '{not json');
    await withPipeline(async (pipeline) => {
      const make = await shell(pipeline, 'make -s');
      expect(make).toMatchObject({ decision: 'ask' });
      expect(make.reason).toContain(LOST_RECORD);
      await writeFile(join(project, 'Makefile'), 'all:\n\t@true\n');
      await run(pipeline, await shell(pipeline, 'make -s', 'local:1'));
      expect(await shell(pipeline, 'make -s')).toMatchObject({ decision: 'allow' });
    });
  });

  it('an always-allow rule for the runner does not skip the question', async () => {
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
      env: process.env,
      rules,
    });
    try {
      await run(pipeline, await shell(pipeline, 'touch notes.txt'));
      expect(await pipeline.evaluate(make)).toMatchObject({ decision: 'ask' });
    } finally {
      pipeline.close();
    }
  });
});
