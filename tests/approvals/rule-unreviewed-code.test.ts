// An always-allow rule for a project command (`make deploy` in ~/app) approved the code the
// person knew. A file written since without a card (a new GNUmakefile, which make prefers to
// the Makefile) changes what that command runs: until a card reviews it, the rule does not
// answer (the command asks, or runs read-only), however the directory is spelled and whether or
// not the workspace tier runs project code. Real pipeline, real files, a real sandboxed run.
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuleStore } from '../../runtime/approvals/rule-store.ts';
import type { RuleStore } from '../../runtime/approvals/types.ts';
import { parseConfig, type ConfigInput } from '../../runtime/config.ts';
import { createPipeline, type Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { ProposedCall } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';

let pipeline: Pipeline | undefined;
afterEach(() => pipeline?.close());

const asked = (executor: string, args: Record<string, unknown>): ProposedCall => ({
  executor,
  args,
  intent: 'deploy my project',
  sender: 'telegram:42',
});

async function setUp(config: ConfigInput): Promise<{ app: string; rules: RuleStore }> {
  const app = await makeTempDir('app-');
  await writeFile(join(app, 'Makefile'), 'deploy:\n\t@echo deployed\n');
  const rules = await createRuleStore(join(await makeTempDir('rules-'), 'rules'));
  pipeline = await createPipeline({
    config: parseConfig({ roots: { write: ['~'] }, ...config }),
    env: { ...process.env, XDG_STATE_HOME: await makeTempDir('state-') },
    rules,
  });
  const rule = rules.propose(asked('shell_exec', { command: 'make deploy', cwd: app }));
  if (rule === null) throw new Error('expected a rule');
  await rules.add(rule);
  return { app, rules };
}

describe('an always-allow rule for project code and files written without a card', () => {
  for (const [what, config] of [
    ['project code on', {}],
    [
      'project code off',
      { approvals: { workspace_catalogue: { enabled: true, project_code: false } } },
    ],
  ] as const) {
    it(`does not let it write while an unreviewed file would change what it runs (${what})`, async () => {
      const { app } = await setUp(config);
      const live = pipeline;
      if (live === undefined) throw new Error('no pipeline');
      const sig = new AbortController().signal;
      const planted = await live.evaluate(
        asked('fs_write', {
          path: join(app, 'GNUmakefile'),
          content: `deploy:\n\ttouch ${join(app, 'PLANTED-RAN')}\n`,
        }),
      );
      expect(planted).toMatchObject({ decision: 'allow', reason: 'workspace: new file' });
      await live.invoke(planted, sig);
      for (const cwd of [app, join(app, '.'), `${app}/sub/..`]) {
        const outcome = await live.evaluate(asked('shell_exec', { command: 'make deploy', cwd }));
        const readOnly = outcome.decision === 'allow' && outcome.grant.by === 'tier';
        expect(outcome.decision === 'ask' || readOnly, `cwd ${cwd}`).toBe(true);
        if (outcome.decision === 'allow') {
          expect(outcome.grant).toMatchObject({ tier: 'read-only-code', writable: [] });
          await live.invoke(outcome, sig);
        }
      }
      expect(await readdir(app)).not.toContain('PLANTED-RAN');
    });
  }

  it('still answers when nothing unreviewed is there', async () => {
    const { app } = await setUp({
      approvals: { workspace_catalogue: { enabled: true, project_code: false } },
    });
    expect(
      await pipeline?.evaluate(asked('shell_exec', { command: 'make deploy', cwd: app })),
    ).toMatchObject({ decision: 'allow', reason: expect.stringContaining('rule') });
  });
});
