// An always-allow rule for a folder covers the files that are really in that folder: a link
// inside it that leads elsewhere is judged where it leads, so a rule saved from a card about
// ~/app/src never writes ~/notes/todo.md without a card. Real pipeline, real files, real run.
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRuleStore } from '../../runtime/approvals/rule-store.ts';
import type { RuleStore } from '../../runtime/approvals/types.ts';
import { parseConfig } from '../../runtime/config.ts';
import { createPipeline, type Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { ProposedCall } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';

let root: string;
let rules: RuleStore;
let pipeline: Pipeline;

const fileCall = (executor: string, args: Record<string, unknown>): ProposedCall => ({
  executor,
  args,
  intent: 'change the file for me',
  sender: 'telegram:42',
});

async function allowAlways(proposed: ProposedCall): Promise<void> {
  const rule = rules.propose(proposed);
  if (rule === null) throw new Error('expected a rule');
  await rules.add(rule);
}

beforeEach(async () => {
  root = await makeTempDir('rule-scope-');
  await mkdir(join(root, 'app', 'src'), { recursive: true });
  await mkdir(join(root, 'notes'), { recursive: true });
  await writeFile(join(root, 'app', 'src', 'main.txt'), 'draft\n');
  await writeFile(join(root, 'app', 'src', 'other.txt'), 'draft\n');
  await writeFile(join(root, 'notes', 'todo.md'), '# todo\n');
  await symlink(join(root, 'notes', 'todo.md'), join(root, 'app', 'src', 'todo-link'));
  await symlink(join(root, 'notes'), join(root, 'app', 'src', 'notes-link'));
  rules = await createRuleStore(join(await makeTempDir('rules-'), 'rules'));
  pipeline = await createPipeline({
    config: parseConfig({ roots: { write: ['~'] } }),
    env: { ...process.env, XDG_STATE_HOME: await makeTempDir('state-') },
    rules,
    audit: 'off',
  });
});
afterEach(() => pipeline.close());

describe('an always-allow rule covers what is really in its folder', () => {
  it('a write or edit through a link in the folder that leads out of it asks, and the note is unchanged', async () => {
    for (const executor of ['fs_write', 'fs_edit'] as const)
      await allowAlways(
        fileCall(executor, {
          path: join(root, 'app', 'src', 'main.txt'),
          content: 'x',
          old_text: 'a',
          new_text: 'b',
        }),
      );
    const sig = new AbortController().signal;
    for (const [executor, args] of [
      ['fs_write', { path: join(root, 'app', 'src', 'todo-link'), content: 'PWNED\n' }],
      ['fs_write', { path: join(root, 'app', 'src', 'notes-link', 'todo.md'), content: 'PWNED\n' }],
      [
        'fs_edit',
        { path: join(root, 'app', 'src', 'todo-link'), old_text: '# todo', new_text: 'PWNED' },
      ],
    ] as const) {
      const outcome = await pipeline.evaluate(fileCall(executor, args));
      expect(outcome.decision, `${executor} ${args.path}`).not.toBe('allow');
      if (outcome.decision === 'allow') await pipeline.invoke(outcome, sig);
    }
    expect(await readFile(join(root, 'notes', 'todo.md'), 'utf8')).toBe('# todo\n');
  });

  it('a delete rule removes no file outside its folder through a link', async () => {
    await allowAlways(fileCall('fs_delete', { path: join(root, 'app', 'src', 'main.txt') }));
    const outcome = await pipeline.evaluate(
      fileCall('fs_delete', { path: join(root, 'app', 'src', 'notes-link', 'todo.md') }),
    );
    expect(outcome.decision).not.toBe('allow');
  });

  it('the rule still covers the ordinary files of its folder', async () => {
    await allowAlways(
      fileCall('fs_write', { path: join(root, 'app', 'src', 'main.txt'), content: 'x' }),
    );
    expect(
      await pipeline.evaluate(
        fileCall('fs_write', { path: join(root, 'app', 'src', 'other.txt'), content: 'y' }),
      ),
    ).toMatchObject({ decision: 'allow' });
  });
});
