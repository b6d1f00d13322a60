// A file's name can hold a credential (wget and browsers save `report.pdf?access_token=…` under
// the URL's last segment). Custode's own fs_list, fs_glob, fs_grep and shell output cut it; the
// agent's LS, Glob, Grep and find print names uncut, so a listing of a tree holding such a name
// asks, and its reason does not name the file. Ordinary trees get no decision.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeCodeAnswer } from './cli-helpers.ts';

const home = process.env.HOME ?? '';
const downloads = join(home, 'Downloads', 'saved');
const project = join(home, 'projects', 'names');
const token = `ghp_${'PLANTEDhookNames0123456789abcdefghijkl'.slice(0, 36)}`;

const answer = (toolName: string, toolInput: unknown, cwd = project) =>
  claudeCodeAnswer(toolName, toolInput, cwd);

beforeAll(() => {
  mkdirSync(downloads, { recursive: true });
  writeFileSync(join(downloads, `report.pdf?access_token=${token}`), 'quarterly figures\n');
  writeFileSync(join(downloads, 'notes.txt'), 'quarterly notes\n');
  mkdirSync(join(project, 'src'), { recursive: true });
  writeFileSync(join(project, 'src', 'main.ts'), 'export const quarterly = 1;\n');
});

describe('custode hook claude-code, names that hold a credential', { timeout: 60_000 }, () => {
  it.each([
    ['LS', { path: downloads }],
    ['Glob', { pattern: '**/*', path: join(home, 'Downloads') }],
    ['Glob', { pattern: '*.pdf*', path: downloads }],
    ['Grep', { pattern: 'quarterly', path: downloads }],
    ['Bash', { command: `find ${downloads}` }],
    ['Bash', { command: `ls ${downloads}` }],
    ['Bash', { command: `ls -la ${downloads}` }],
    ['Bash', { command: `echo ${downloads}/*` }],
    ['Bash', { command: `stat ${downloads}/*.pdf*` }],
  ])('%s %j asks without naming the file', async (tool, input) => {
    const { decision, text } = await answer(tool, input);
    expect(decision).toBe('ask');
    expect(text).not.toContain(token);
  });

  it.each([
    ['LS', { path: project }],
    ['Glob', { pattern: '**/*.ts' }],
    ['Grep', { pattern: 'quarterly' }],
    ['Bash', { command: 'find src' }],
    ['Bash', { command: 'ls src' }],
    ['Bash', { command: 'ls -la' }],
    ['Bash', { command: 'echo src/*' }],
    ['Bash', { command: `ls -d ${downloads}` }],
  ])('%s %j of an ordinary tree gets no decision', async (tool, input) => {
    expect((await answer(tool, input)).decision).toBe('none');
  });
});
