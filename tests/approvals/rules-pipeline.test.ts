// Always-allow rules inside the real pipeline: a rule turns an ask into an allow for its
// owner, and never lets through a call the guard blocks, whatever the rule covers.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRuleStore } from '../../runtime/approvals/rule-store.ts';
import type { RuleStore } from '../../runtime/approvals/types.ts';
import { parseConfig } from '../../runtime/config.ts';
import { createPipeline, type Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { ProposedCall } from '../../runtime/pipeline/types.ts';

const home = process.env.HOME ?? '';
let rules: RuleStore;
let pipeline: Pipeline;

const write = (path: string, sender = 'telegram:42'): ProposedCall => ({
  executor: 'fs_write',
  args: { path, content: 'x' },
  intent: 'write the file for me',
  sender,
});
const shell = (command: string, sender = 'telegram:42'): ProposedCall => ({
  executor: 'shell_exec',
  args: { command },
  intent: 'run the shell command for me',
  sender,
});

async function addRuleFor(call: ProposedCall): Promise<void> {
  const rule = rules.propose(call);
  if (rule === null) throw new Error('expected a rule');
  await rules.add(rule);
}

beforeEach(async () => {
  rules = await createRuleStore(join(await mkdtemp(join(home, 'rules-')), 'rules'));
  pipeline = await createPipeline({
    config: parseConfig({ sandbox: { mode: 'off' } }),
    env: process.env,
    rules,
    audit: 'off',
  });
});
afterEach(() => {
  pipeline.close();
});

describe('always-allow rules in the pipeline', () => {
  it('turn an ask into an allow, for the rule owner only', async () => {
    // Overwrites: a new file would run as the workspace tier's, before any rule.
    await mkdir(join(home, 'notes'), { recursive: true });
    for (const name of ['notes/a.txt', 'notes/b.txt', 'elsewhere.txt'])
      await writeFile(join(home, name), 'old\n');
    expect((await pipeline.evaluate(write('~/notes/a.txt'))).decision).toBe('ask');
    await addRuleFor(write('~/notes/a.txt'));
    const allowed = await pipeline.evaluate(write('~/notes/b.txt'));
    expect(allowed.decision).toBe('allow');
    expect(allowed.reason).toBe('rule: Always allow fs_write in ~/notes/ and below');
    expect((await pipeline.evaluate(write('~/notes/b.txt', 'telegram:7'))).decision).toBe('ask');
    expect((await pipeline.evaluate(write('~/elsewhere.txt'))).decision).toBe('ask');
  });

  it('never let a guard-blocked file call through, even inside the rule directory', async () => {
    await addRuleFor(write('~/work/notes.txt'));
    expect((await pipeline.evaluate(write('~/work/todo.txt'))).decision).toBe('allow');
    for (const blocked of [
      '~/work/.ssh/id_rsa',
      '~/work/.aws/credentials',
      '~/work/.git-credentials',
      '~/work/.gnupg/key',
    ]) {
      const outcome = await pipeline.evaluate(write(blocked));
      expect(outcome.decision).toBe('deny');
      expect(outcome.stage).toBe('guard');
    }
  });

  it('never let a guard-blocked shell call through, even with a rule for exactly that call', async () => {
    await addRuleFor(shell('git push origin main'));
    expect((await pipeline.evaluate(shell('git push origin main'))).decision).toBe('allow');
    expect((await pipeline.evaluate(shell('git push --force origin main'))).decision).toBe('ask');
    await addRuleFor(shell('git status /etc/shadow'));
    const outcome = await pipeline.evaluate(shell('git status /etc/shadow'));
    expect(outcome.decision).toBe('deny');
    expect(outcome.stage).toBe('guard');
  });
});
