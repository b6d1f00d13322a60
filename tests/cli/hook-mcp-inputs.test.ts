// MCP servers name their inputs as they like: serena's `relative_path`, JetBrains'
// `pathInProject`, git's `repo_path`, a `uri` of `file://…`; desktop-commander and shell servers
// take a command line as `command` or `cmd` and run it as the user, with no sandbox. The hook
// judges what such an input opens or runs, whatever the key is called; text that only mentions a
// path stays text.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeCodeAnswer } from './cli-helpers.ts';

const home = process.env.HOME ?? '';
const project = join(home, 'projects', 'mcp');
const key = join(home, '.ssh', 'id_ed25519');
const token = `ghp_${'PLANTEDmcpInputs0123456789abcdefghijkl'.slice(0, 36)}`;

async function decision(toolName: string, toolInput: unknown, cwd = project): Promise<string> {
  return (await claudeCodeAnswer(toolName, toolInput, cwd)).decision;
}

beforeAll(() => {
  mkdirSync(join(project, 'notes'), { recursive: true });
  writeFileSync(join(project, 'notes', 'plan.md'), '# plan\n');
  writeFileSync(join(project, 'notes', 'keys.txt'), `github: ${token}\n`);
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(key, 'FAKE-SSH-KEY\n');
});

describe('custode hook claude-code, MCP inputs under any name', { timeout: 60_000 }, () => {
  it('a path under a compound key (relative_path, pathInProject, repo_path) is judged', async () => {
    expect(
      await decision('mcp__serena__read_file', { relative_path: '.ssh/id_ed25519' }, home),
    ).toBe('deny');
    expect(await decision('mcp__jetbrains__get_file_text_by_path', { pathInProject: key })).toBe(
      'deny',
    );
    expect(await decision('mcp__git__git_show', { repo_path: join(home, '.ssh') })).toBe('deny');
    expect(await decision('mcp__serena__read_file', { relative_path: 'notes/keys.txt' })).toBe(
      'ask',
    );
  });

  it('a file:// URI is a path under any key', async () => {
    expect(await decision('mcp__resources__read', { uri: `file://${key}` })).toBe('deny');
  });

  it('a command line an MCP server runs is judged as the shell line it is', async () => {
    expect(
      await decision('mcp__desktop-commander__start_process', {
        command: 'cat ~/.ssh/id_ed25519',
        timeout_ms: 5000,
      }),
    ).toBe('deny');
    expect(await decision('mcp__shell__execute', { cmd: 'cat notes/keys.txt' })).toBe('ask');
  });

  it('everyday MCP calls get no decision', async () => {
    expect(await decision('mcp__serena__read_file', { relative_path: 'notes/plan.md' })).toBe(
      'none',
    );
    expect(await decision('mcp__shell__execute', { command: 'ls notes' })).toBe('none');
    expect(
      await decision('mcp__github__create_issue', {
        title: 'Document the key setup',
        body: 'Explain where ~/.ssh/id_ed25519 comes from',
      }),
    ).toBe('none');
  });
});
