// A recursive search over the working directory (`.`) or a `~/dir` spelling runs without a card
// where the same search over `src` does: strictly below a write root, never around the home.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const home = process.env.HOME ?? '';
let project: string;
let pipeline: Pipeline;

beforeAll(async () => {
  project = await makeTempDir('app-');
  await mkdir(join(home, '.config', 'app'), { recursive: true });
  await writeFile(join(project, 'a.ts'), '// TODO\n');
  await symlink(join(home, '.config', 'app'), join(project, 'cfg'));
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
});
afterAll(() => pipeline.close());

async function decision(command: string, cwd?: string): Promise<string> {
  const args = cwd === undefined ? { command } : { command, cwd };
  return (await pipeline.evaluate(call('shell_exec', args, 'find my TODOs'))).decision;
}

describe('recursive reads of the working directory', () => {
  it('searches . and ~/dir below the home without a card', async () => {
    expect(await decision('grep -rn TODO .', project)).toBe('allow');
    expect(await decision(`cd ${project} && grep -rn TODO .`)).toBe('allow');
    const name = project.slice(home.length + 1);
    expect(await decision(`grep -rn TODO ~/${name}`)).toBe('allow');
  });

  it('asks for the home itself, a hidden tree, or a . that a link makes hidden', async () => {
    expect(await decision('grep -rn TODO .')).toBe('ask');
    expect(await decision('grep -rn TODO ~')).toBe('ask');
    expect(await decision('grep -rn TODO ~/.config')).toBe('ask');
    expect(await decision('grep -rn TOKEN .', join(project, 'cfg'))).toBe('ask');
  });
});
