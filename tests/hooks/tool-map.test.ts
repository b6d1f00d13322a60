// Claude Code's tools onto Custode's executors: what each call becomes, in the agent's cwd.
import { describe, expect, it } from 'vitest';
import { mapToolCall } from '../../runtime/hooks/tool-map.ts';

const cwd = '/home/ada/app';

describe('mapToolCall', () => {
  it.each([
    ['Bash', { command: 'ls', timeout: 1000 }, 'shell_exec', { command: 'ls', cwd }],
    ['Read', { file_path: 'src/a.ts', limit: 5 }, 'fs_read', { path: `${cwd}/src/a.ts` }],
    ['Read', { file_path: '~/.ssh/id_rsa' }, 'fs_read', { path: '~/.ssh/id_rsa' }],
    ['Write', { file_path: '/tmp/a', content: 'x' }, 'fs_write', { path: '/tmp/a', content: 'x' }],
    [
      'Edit',
      { file_path: '/tmp/a', old_string: 'a', new_string: 'b', replace_all: true },
      'fs_edit',
      { path: '/tmp/a', old_text: 'a', new_text: 'b' },
    ],
    [
      'Edit',
      { file_path: '/tmp/new', old_string: '', new_string: 'hello' },
      'fs_write',
      { path: '/tmp/new', content: 'hello' },
    ],
    [
      'MultiEdit',
      {
        file_path: '/tmp/a',
        edits: [
          { old_string: 'a', new_string: 'b' },
          { old_string: 'c', new_string: 'd' },
        ],
      },
      'fs_multi_edit',
      {
        path: '/tmp/a',
        edits: [
          { old_text: 'a', new_text: 'b' },
          { old_text: 'c', new_text: 'd' },
        ],
      },
    ],
    ['Glob', { pattern: '**/*.ts' }, 'fs_glob', { pattern: '**/*.ts', path: cwd }],
    ['Grep', { pattern: 'x', path: '/etc' }, 'fs_grep', { pattern: 'x', path: '/etc' }],
    ['Grep', { pattern: 'x' }, 'fs_grep', { pattern: 'x', path: cwd }],
    [
      'Grep',
      { pattern: 'x', glob: '*.{ts,tsx}' },
      'fs_grep',
      { pattern: 'x', path: cwd, glob: '*.{ts,tsx}' },
    ],
    ['LS', { path: 'src' }, 'fs_list', { path: `${cwd}/src` }],
    [
      'NotebookEdit',
      { notebook_path: 'a.ipynb', cell_id: 'c1', new_source: 'print(1)' },
      'fs_write',
      { path: `${cwd}/a.ipynb`, content: 'print(1)' },
    ],
    ['WebFetch', { url: 'https://a.test', prompt: 'sum' }, 'web_fetch', { url: 'https://a.test' }],
  ])('maps %s %j to %s', (tool, input, executor, args) => {
    expect(mapToolCall(tool, input, cwd)).toEqual({ kind: 'calls', calls: [{ executor, args }] });
  });

  it('maps a Codex patch to one call per file it adds, changes, moves or deletes', () => {
    const command = [
      '*** Begin Patch',
      '*** Add File: src/new.ts',
      '+export {};',
      '+// two',
      '*** Update File: src/a.ts',
      '*** Move to: /tmp/b.ts',
      '@@',
      '-a',
      '+b',
      '*** Delete File: old.txt',
      '*** End Patch',
    ].join('\n');
    expect(mapToolCall('apply_patch', { command }, cwd)).toEqual({
      kind: 'calls',
      calls: [
        {
          executor: 'fs_write',
          args: { path: `${cwd}/src/new.ts`, content: 'export {};\n// two' },
        },
        { executor: 'fs_write', args: { path: `${cwd}/src/a.ts`, content: '' } },
        { executor: 'fs_write', args: { path: '/tmp/b.ts', content: '' } },
        { executor: 'fs_delete', args: { path: `${cwd}/src/a.ts` } },
        { executor: 'fs_delete', args: { path: `${cwd}/old.txt` } },
      ],
    });
    expect(mapToolCall('apply_patch', { command: 'rm -rf /' }, cwd)).toMatchObject({
      kind: 'malformed',
    });
  });

  it('reads a patch header that Codex reads with blanks around it (its parser trims each)', () => {
    const command = [
      '*** Begin Patch',
      '*** Add File: notes.md',
      '+hi',
      ' *** Delete File: README.md',
      '\t*** Update File: /home/ada/.bashrc',
      '@@',
      '-a',
      '+b',
      '\u0085*** Delete File: Makefile',
      '*** End Patch',
    ].join('\n');
    expect(mapToolCall('apply_patch', { command }, cwd)).toEqual({
      kind: 'calls',
      calls: [
        { executor: 'fs_write', args: { path: `${cwd}/notes.md`, content: 'hi' } },
        { executor: 'fs_delete', args: { path: `${cwd}/README.md` } },
        { executor: 'fs_write', args: { path: '/home/ada/.bashrc', content: '' } },
        { executor: 'fs_delete', args: { path: `${cwd}/Makefile` } },
      ],
    });
  });

  it('keeps a `..` as written, for the gate to judge it as the kernel opens it too', () => {
    expect(mapToolCall('Read', { file_path: 'link/../secret' }, cwd)).toEqual({
      kind: 'calls',
      calls: [{ executor: 'fs_read', args: { path: `${cwd}/link/../secret` } }],
    });
  });

  it('leaves MCP and unknown tools unmapped, and names what is wrong with a bad input', () => {
    expect(mapToolCall('mcp__github__create_issue', {}, cwd)).toEqual({ kind: 'unmapped' });
    expect(mapToolCall('TodoWrite', { todos: [] }, cwd)).toEqual({ kind: 'unmapped' });
    expect(mapToolCall('constructor', {}, cwd)).toEqual({ kind: 'unmapped' });
    expect(mapToolCall('Write', { file_path: '/tmp/a' }, cwd)).toMatchObject({
      kind: 'malformed',
      reason: expect.stringContaining('tool_input.content'),
    });
  });
});
