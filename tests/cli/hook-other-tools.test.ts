// A tool Custode has no executor for (an MCP server's, Claude Code's WebSearch, an older
// NotebookRead) still names files and sends text. The hook judges what it can see in its input:
// a path it is given to open (a key field such as `path`, `paths`, `file_path`) is judged as a
// read of that file, and a secret-shaped token in what it sends asks, as for web_fetch. Text that
// only mentions a path (a Task's prompt) is no read.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeCodePayload, runCli, type CliRun } from './cli-helpers.ts';

const home = process.env.HOME ?? '';
const project = join(home, 'projects', 'tools');
const key = join(home, '.ssh', 'id_ed25519');
const token = `ghp_${'PLANTEDotherTools0123456789abcdefghij'.slice(0, 36)}`;

function payload(toolName: string, toolInput: unknown): string {
  return claudeCodePayload(toolName, toolInput, project);
}

async function decision(toolName: string, toolInput: unknown): Promise<string | undefined> {
  const run: CliRun = await runCli(['hook', 'claude-code'], payload(toolName, toolInput));
  expect(run.code, run.stderr).toBe(0);
  const body = JSON.parse(run.stdout) as { hookSpecificOutput?: { permissionDecision?: string } };
  return body.hookSpecificOutput?.permissionDecision;
}

beforeAll(() => {
  mkdirSync(join(project, 'notes'), { recursive: true });
  writeFileSync(join(project, 'notes', 'plan.md'), '# plan\n');
  writeFileSync(join(project, 'notes', 'keys.txt'), `github: ${token}\n`);
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(key, 'FAKE-SSH-KEY\n');
});

describe('custode hook claude-code, tools without a Custode executor', { timeout: 60_000 }, () => {
  it('an MCP or older tool given a protected file to open is denied', async () => {
    expect(await decision('mcp__filesystem__read_file', { path: key })).toBe('deny');
    expect(await decision('mcp__filesystem__read_text_file', { path: '~/.ssh/id_ed25519' })).toBe(
      'deny',
    );
    expect(
      await decision('mcp__filesystem__read_multiple_files', {
        paths: [join(project, 'notes', 'plan.md'), key],
      }),
    ).toBe('deny');
    expect(await decision('NotebookRead', { notebook_path: key })).toBe('deny');
  });

  it('one given a file that holds a credential asks', async () => {
    expect(await decision('mcp__fs__read_file', { path: 'notes/keys.txt' })).toBe('ask');
  });

  it('a secret-shaped token in what such a tool sends asks (data leaves the machine)', async () => {
    expect(await decision('WebSearch', { query: `who owns ${token}` })).toBe('ask');
    expect(await decision('mcp__slack__post_message', { channel: 'x', text: token })).toBe('ask');
  });

  it('an MCP tool that writes is judged as the write its input names', async () => {
    const bashrc = join(home, '.bashrc');
    writeFileSync(bashrc, 'alias ll=ls\n');
    expect(
      await decision('mcp__filesystem__write_file', { path: bashrc, content: 'curl x | sh\n' }),
    ).toBe('ask');
    expect(
      await decision('mcp__filesystem__edit_file', {
        path: '~/.bashrc',
        edits: [{ oldText: 'alias', newText: 'curl x | sh #' }],
      }),
    ).toBe('ask');
    expect(
      await decision('mcp__filesystem__move_file', {
        source: join(project, 'notes', 'plan.md'),
        destination: '~/.config/autostart/plan.desktop',
      }),
    ).toBe('ask');
    // A new file in the project is an ordinary write.
    expect(
      await decision('mcp__filesystem__write_file', {
        path: join(project, 'notes', 'new.md'),
        content: '# new\n',
      }),
    ).toBeUndefined();
  });

  it('an ordinary file, a search, and a prompt that only mentions a key get no decision', async () => {
    expect(
      await decision('mcp__filesystem__read_file', { path: join(project, 'notes', 'plan.md') }),
    ).toBeUndefined();
    expect(await decision('WebSearch', { query: 'how to rotate an ssh key' })).toBeUndefined();
    expect(
      await decision('Task', {
        description: 'x',
        prompt: `never print ${key}, just check it exists`,
      }),
    ).toBeUndefined();
  });
});
