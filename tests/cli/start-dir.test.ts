// Where `custode chat` works: the person's directory, also under `npm start` (INIT_CWD).
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startDir } from '../../runtime/cli/start-dir.ts';
import { systemPrompt } from '../../runtime/planner/prompts.ts';

const packageRoot = resolve(import.meta.dirname, '../..');

describe('startDir', () => {
  it('is the process cwd when run directly (npx custode, a linked custode)', () => {
    expect(startDir({ INIT_CWD: '/elsewhere' }, '/home/u/project')).toBe('/home/u/project');
    expect(startDir({}, '/home/u/project/')).toBe('/home/u/project');
  });

  it("is npm's INIT_CWD when npm runs the script in the package root", () => {
    expect(startDir({ INIT_CWD: '/home/u/project' }, packageRoot)).toBe('/home/u/project');
    expect(startDir({}, packageRoot)).toBe(packageRoot);
  });

  it('is told to the model, which is asked to spell it out in tool calls', () => {
    expect(systemPrompt('multistep', '/home/u/project')).toContain(
      'The person is working in /home/u/project: read paths they give relative to it, pass tools absolute paths, and give shell_exec cwd /home/u/project',
    );
    expect(systemPrompt('multistep')).not.toContain('working in');
  });
});
