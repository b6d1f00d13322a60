// An MCP server is given a path or a command line in whatever shape its author chose: a
// `FILE://` URI (a scheme is case-insensitive), a whole path under a key with no path word
// (`location`, `to`, a list of arguments), the input again as JSON text (a proxy's `arguments`),
// a command under `script` or `commands`, nested, or as an argv list. The hook judges each as it
// judges `path` and `command`; everyday MCP inputs still get no decision.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeCodeAnswer } from './cli-helpers.ts';

const home = process.env.HOME ?? '';
const project = join(home, 'projects', 'mcp-shapes');
const key = join(home, '.ssh', 'id_ed25519');

async function decision(toolName: string, toolInput: unknown): Promise<string> {
  return (await claudeCodeAnswer(toolName, toolInput, project)).decision;
}

beforeAll(() => {
  mkdirSync(join(project, 'notes'), { recursive: true });
  writeFileSync(join(project, 'notes', 'plan.md'), '# plan\n');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(key, 'FAKE-SSH-KEY\n');
});

describe('custode hook claude-code, MCP inputs in any shape', { timeout: 90_000 }, () => {
  it('a file URI in any case or with a host is the file it names', async () => {
    expect(await decision('mcp__resources__read', { uri: `FILE://${key}` })).toBe('deny');
    expect(await decision('mcp__resources__read', { uri: `File://localhost${key}` })).toBe('deny');
  });

  it('a whole path under a key with no path word is a path', async () => {
    expect(await decision('mcp__fs__read', { location: key })).toBe('deny');
    expect(await decision('mcp__fs__read', { args: ['-n', '~/.ssh/id_ed25519'] })).toBe('deny');
    expect(
      await decision('mcp__fs__copy', { from: 'notes/plan.md', to: join(home, '.bashrc') }),
    ).toBe('ask');
  });

  it('the input given again as JSON text is judged as the input', async () => {
    expect(
      await decision('mcp__proxy__call_tool', {
        name: 'read_file',
        arguments: JSON.stringify({ path: key }),
      }),
    ).toBe('deny');
  });

  it('a command under script or commands, nested, or as a list is judged as a shell line', async () => {
    expect(await decision('mcp__sh__run', { script: 'cat ~/.ssh/id_ed25519' })).toBe('deny');
    expect(await decision('mcp__sh__run', { commands: ['ls', 'rm -rf notes'] })).toBe('ask');
    expect(await decision('mcp__sh__run', { options: { command: 'rm -rf notes' } })).toBe('ask');
    expect(await decision('mcp__sh__run', { command: ['rm', '-rf', 'notes'] })).toBe('ask');
    expect(await decision('mcp__sh__run', { cmd: ['cat', key] })).toBe('deny');
  });

  it('everyday MCP inputs get no decision', async () => {
    expect(await decision('mcp__http__get', { endpoint: '/api/v1/users', page: 2 })).toBe('none');
    expect(
      await decision('mcp__slack__post_message', { channel: '#general', text: 'see /etc/hosts' }),
    ).toBe('none');
    expect(await decision('mcp__sh__run', { script: 'ls notes' })).toBe('none');
    expect(await decision('mcp__sh__run', { command: ['ls', 'notes'] })).toBe('none');
    expect(await decision('mcp__devtools__get_script_source', { scriptId: '42' })).toBe('none');
    expect(
      await decision('mcp__fs__write_file', {
        path: 'tsconfig.json',
        content: JSON.stringify({ compilerOptions: { rootDir: 'notes', outDir: 'dist' } }),
      }),
    ).toBe('none');
  });
});
