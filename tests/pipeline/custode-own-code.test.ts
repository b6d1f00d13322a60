// Custode's own code is the gate: a clone in ~ (where the README has people run it from) lies
// inside roots.write, and what is written there runs at the next start of the daemon, or at
// the very next tool call of an agent whose hook starts `custode hook`, outside any sandbox.
// Nothing in it is written without a card, however git sees it.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const custode = join(import.meta.dirname, '..', '..');
let pipeline: Pipeline;

beforeEach(async () => {
  const state = await makeTempDir('state-');
  pipeline = await pipelineWith(
    { roots: { write: ['~', custode] } },
    { ...process.env, XDG_STATE_HOME: state },
  );
});
afterEach(() => pipeline.close());

describe("Custode's own code is never written without a card", () => {
  it('an edit of its entry point, its guard or its package file, or a new module, asks', async () => {
    for (const [executor, args] of [
      ['fs_write', { path: join(custode, 'runtime', 'cli', 'custode.mjs'), content: 'x' }],
      ['fs_edit', { path: join(custode, 'package.json'), old_text: '"name"', new_text: '"x"' }],
      ['fs_write', { path: join(custode, 'constitution', 'planted.ts'), content: 'x' }],
      ['fs_mkdir', { path: join(custode, 'runtime', 'planted') }],
      ['shell_exec', { command: 'touch planted.txt', cwd: custode }],
    ] as const) {
      const outcome = await pipeline.evaluate(call(executor, args));
      expect(outcome.decision, `${executor} ${JSON.stringify(args)}`).not.toBe('allow');
    }
  });

  it('reading its code stays free', async () => {
    const outcome = await pipeline.evaluate(
      call('fs_read', { path: join(custode, 'constitution', 'protected.ts') }),
    );
    expect(outcome).toMatchObject({ decision: 'allow' });
  });
});
