// Inline code that spells a path from / or ~/ in its text (`node -p "require('/home/me/app/
// package.json').version"`, `open("/home/me/notes/todo.md")`) sees that path, as it would see an
// operand: read-checked first (a protected place, a credential file or a tree holding one asks),
// then shown read-only. Nothing else of the home is shown: a path the code builds stays hidden.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { call, projectAndPipeline } from './pipeline-helpers.ts';

const home = process.env.HOME ?? '';
let project: string;
let pipeline: Pipeline;

beforeAll(async () => {
  ({ project, pipeline } = await projectAndPipeline());
  await mkdir(join(home, '.ssh'), { recursive: true });
  await writeFile(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY\n');
  await mkdir(join(home, 'dotfiles-code'), { recursive: true });
  await writeFile(join(home, 'dotfiles-code', '.netrc'), 'machine x password hunter2\n');
  await writeFile(join(home, 'diary-code.txt'), 'dear diary\n');
});
afterAll(() => pipeline.close());

function decide(command: string): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command, cwd: home }, 'which version is it?'));
}

/** Decide `decided` without a card, then run `ran` under that grant; its stdout. */
async function printed(decided: string, ran = decided): Promise<string> {
  const outcome = await decide(decided);
  expect(outcome, decided).toMatchObject({ decision: 'allow', grant: { tier: 'read-only-code' } });
  const result = await pipeline.invoke(
    { ...outcome, args: { command: ran, cwd: home } },
    new AbortController().signal,
  );
  return result.ok ? String((result.result as { stdout: string }).stdout) : '';
}

describe('a path spelled in inline code', () => {
  it('is shown to the code, read-only, from the home', async () => {
    expect(await printed(`node -p "require('${project}/package.json').version"`)).toBe('1.2.3\n');
    expect(
      await printed(
        `python3 -c 'import json; print(json.load(open("${project}/package.json"))["version"])'`,
      ),
    ).toBe('1.2.3\n');
  });

  it('shows nothing the line does not spell', async () => {
    const decided = `node -p "require('${project}/package.json').version"`;
    const ran = `node -p "require('fs').readFileSync(require('path').join('${home}', 'diary-code.txt'), 'utf8')"`;
    expect(await printed(decided, ran)).not.toContain('dear diary');
  });

  it('asks when the path is a protected place, a credential file or a tree holding one', async () => {
    for (const command of [
      `node -p "require('fs').readFileSync('${home}/.ssh/id_ed25519', 'utf8')"`,
      `node -p "require('fs').readFileSync('~/.ssh/id_ed25519', 'utf8')"`,
      `python3 -c 'print(open("${home}/dotfiles-code/.netrc").read())'`,
      `node -p "require('fs').readdirSync('${home}/dotfiles-code')"`,
      `python3 -c 'print(open("/etc/shadow").read())'`,
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });
});
