// The guard on the file tools' arguments, decided by guardCall with a home outside /home: a
// write into a system tree (every writing tool, every spelling of the path), the depth bound
// on a hostile args object at its exact edge, text arguments that only mention a protected
// path, and a URL that sends a token. The paths are written here, not taken from the lists.
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser, parseShell } from '../../runtime/shell/parse.ts';
import {
  guardCall,
  MENTION_SIGNAL,
  SECRET_TOKEN_SIGNAL,
  type GuardResult,
} from '../../runtime/vaglio/guard.ts';
import { reasonOf } from './guard-helpers.ts';

const home = '/data/ada';
const DANGEROUS_WRITE = 'dangerous write: into a system tree';
const IRRECOVERABLE_DELETE = 'irrecoverable delete: / or a home or system tree';
const TOO_DEEP = 'guard: arguments nested too deeply to check';

beforeAll(async () => {
  await initShellParser();
});

function tool(executor: string, args: unknown): GuardResult {
  return guardCall({ executor, args, home });
}

describe('a file tool writing into a system tree', () => {
  it.each(['fs_write', 'fs_edit', 'fs_multi_edit', 'fs_mkdir', 'fs_delete'])(
    '%s into /etc, /usr, /boot, /proc or /sys is refused, however the path is spelled',
    (executor) => {
      for (const path of [
        '/etc/hosts',
        ' /etc/hosts ',
        '/usr/local/bin/tool',
        '/boot/config-custom',
        '/proc/sys/vm/swappiness',
        '/etc',
        '//etc/./cron.d/job',
        '/data/../etc/motd',
        '~/../../usr/bin/x',
      ]) {
        // Deleting the whole of /etc is the graver rule's (checked first).
        const expected =
          executor === 'fs_delete' && path === '/etc' ? IRRECOVERABLE_DELETE : DANGEROUS_WRITE;
        expect(reasonOf(tool(executor, { path, content: 'x' })), path).toBe(expected);
      }
    },
  );

  it.each(['fs_write', 'fs_edit', 'fs_mkdir'])('%s elsewhere passes', (executor) => {
    for (const path of [
      '~/notes.md',
      '/data/ada/etc/hosts',
      '/etcetera/x',
      '/var/tmp/x',
      '/srv/usr',
    ]) {
      expect(tool(executor, { path, content: 'x' }), path).toEqual({ blocked: false, signals: [] });
    }
  });

  it('a reading tool names /etc without writing it', () => {
    expect(tool('fs_read', { path: '/etc/hosts' })).toEqual({ blocked: false, signals: [] });
    expect(tool('fs_list', { path: '/usr/share' })).toEqual({ blocked: false, signals: [] });
  });

  it('a path that is not a string, or args that are not an object, write nothing', () => {
    expect(tool('fs_write', { path: ['/etc/hosts'] }).blocked).toBe(false);
    expect(tool('fs_write', { path: 7 })).toEqual({ blocked: false, signals: [] });
    expect(tool('fs_write', null)).toEqual({ blocked: false, signals: [] });
    expect(tool('fs_delete', 'just text')).toEqual({ blocked: false, signals: [] });
    expect(tool('fs_delete', { target: '/' })).toEqual({ blocked: false, signals: [] });
  });

  it('an inherited path is not the tool’s argument', () => {
    const args = Object.create({ path: '/etc/hosts' }) as object;
    expect(tool('fs_write', args)).toEqual({ blocked: false, signals: [] });
    expect(tool('fs_delete', Object.create({ path: '/' }) as object)).toEqual({
      blocked: false,
      signals: [],
    });
  });

  it('fs_delete of the home or its parent is an irrecoverable delete, a write check comes after', () => {
    expect(reasonOf(tool('fs_delete', { path: '/data' }))).toBe(IRRECOVERABLE_DELETE);
    expect(tool('fs_delete', { path: '/data' }).signals).toEqual(['dangerous delete']);
    expect(tool('fs_write', { path: '/data' })).toEqual({ blocked: false, signals: [] });
    expect(tool('fs_delete', { path: '/etc/motd' })).toEqual({
      blocked: true,
      reason: DANGEROUS_WRITE,
      signals: ['dangerous write'],
    });
  });
});

describe('the depth bound on a hostile args object', () => {
  function nestedArrays(depth: number): unknown {
    let value: unknown = 'x';
    for (let i = 0; i < depth; i += 1) value = [value];
    return value;
  }
  function nestedObjects(depth: number): unknown {
    let value: unknown = 'x';
    for (let i = 0; i < depth; i += 1) value = { k: value };
    return value;
  }

  it('32 levels are walked, 33 are refused, for arrays and objects alike', () => {
    expect(tool('x', nestedArrays(32))).toEqual({ blocked: false, signals: [] });
    expect(tool('x', nestedArrays(33))).toEqual({
      blocked: true,
      reason: TOO_DEEP,
      signals: ['guard error'],
    });
    expect(tool('x', nestedObjects(32))).toEqual({ blocked: false, signals: [] });
    expect(reasonOf(tool('x', nestedObjects(33)))).toBe(TOO_DEEP);
  });

  it('a forbidden path at the deepest walked level is still found', () => {
    let value: unknown = '/etc/shadow';
    for (let i = 0; i < 32; i += 1) value = [value];
    expect(reasonOf(tool('x', value))).toMatch(/^forbidden path: account and privilege/);
  });

  it('a text argument is walked to the same bound: 31 arrays inside edits, not 32', () => {
    const wrapped = (n: number): unknown => {
      let value: unknown = '/etc/shadow';
      for (let i = 0; i < n; i += 1) value = [value];
      return value;
    };
    expect(tool('fs_multi_edit', { path: '~/a.md', edits: wrapped(31) })).toEqual({
      blocked: false,
      signals: [MENTION_SIGNAL],
    });
    expect(reasonOf(tool('fs_multi_edit', { path: '~/a.md', edits: wrapped(32) }))).toBe(TOO_DEEP);
  });

  it('a text argument nested beyond the bound is refused too', () => {
    let edits: unknown = 'x';
    for (let i = 0; i < 40; i += 1) edits = [edits];
    expect(reasonOf(tool('fs_multi_edit', { path: '~/a.md', edits }))).toBe(TOO_DEEP);
  });
});

describe('text arguments mention, path arguments open', () => {
  it.each([
    ['fs_write', { path: '~/notes.md', content: 'cat /etc/shadow' }],
    ['fs_edit', { path: '~/notes.md', old_text: 'a', new_text: 'see ~/.ssh/id_rsa' }],
    ['fs_edit', { path: '~/notes.md', old_text: 'see ~/.ssh/id_rsa', new_text: 'b' }],
    ['fs_multi_edit', { path: '~/a.md', edits: [{ old_text: 'a', new_text: '/etc/shadow' }] }],
    ['fs_multi_edit', { path: '~/a.md', edits: [{ '/etc/shadow': 'a key' }] }],
    ['fs_grep', { path: '~/project', pattern: '/etc/shadow' }],
    ['web_fetch', { url: 'https://example.com/etc/shadow' }],
    ['web_fetch', { url: 'https://example.com/docs/%2Essh/id_rsa' }],
  ])('%s %j passes with the mention signal', (executor, args) => {
    expect(tool(executor, args)).toEqual({ blocked: false, signals: [MENTION_SIGNAL] });
  });

  it.each([
    ['fs_write', { path: '/etc/shadow', content: 'x' }],
    ['fs_read', { path: '~/notes.md', content: '/etc/shadow' }],
    ['fs_grep', { path: '/etc/shadow', pattern: 'root' }],
    ['web_fetch', { url: 'file:///etc/shadow' }],
    ['web_fetch', { url: '/etc/shadow' }],
  ])('%s %j is a forbidden path', (executor, args) => {
    expect(reasonOf(tool(executor, args))).toMatch(/^forbidden path: account and privilege/);
  });

  it('text without a protected path carries no signal', () => {
    expect(tool('fs_write', { path: '~/a.md', content: 'hello' })).toEqual({
      blocked: false,
      signals: [],
    });
    expect(tool('web_fetch', { url: 'https://example.com/docs' })).toEqual({
      blocked: false,
      signals: [],
    });
  });

  it('a denial drops the mention signal and keeps the others', () => {
    const result = tool('fs_write', { path: '/etc/shadow', content: 'cat ~/.ssh/id_rsa' });
    expect(result.signals).toEqual(['forbidden path']);
  });
});

describe('a URL that carries a token', () => {
  const token = `ghp_${'a1B2c3D4e5'.repeat(3)}123456`;
  it.each([
    `https://example.com/x?t=${token}`,
    `https://example.com/x?t=${token.replace('_', '%5F')}`,
  ])('web_fetch %s passes with the token signal', (url) => {
    expect(tool('web_fetch', { url }).signals).toContain(SECRET_TOKEN_SIGNAL);
  });

  it('the same token in another tool’s url, or an undecodable URL, is not a sent token', () => {
    expect(
      tool('fs_read', { url: `https://example.com/x?t=${token}`, path: '~/a' }).signals,
    ).toEqual([]);
    expect(tool('web_fetch', { url: 'https://example.com/%E0%A4%A' })).toEqual({
      blocked: false,
      signals: [],
    });
    expect(
      tool('web_fetch', Object.create({ url: `https://e.com/?t=${token}` }) as object),
    ).toEqual({
      blocked: false,
      signals: [],
    });
  });
});

describe('the parse a caller hands in', () => {
  it('is used only when it is the parse of this command line', () => {
    const innocent = parseShell('ls');
    const args = { command: 'rm -rf /' };
    const result = guardCall({
      executor: 'shell_exec',
      args,
      commandArg: 'command',
      home,
      parsed: innocent,
    });
    expect(reasonOf(result)).toBe(
      'dangerous shell: recursive delete of / or a home or system tree',
    );
    const own = parseShell('ls ~/project');
    const same = guardCall({
      executor: 'shell_exec',
      args: { command: 'ls ~/project' },
      commandArg: 'command',
      home,
      parsed: own,
    });
    expect(same).toEqual({ blocked: false, signals: [] });
  });

  it('no parse handed in (null) means the guard parses the line itself', () => {
    const decide = (command: string): GuardResult =>
      guardCall({
        executor: 'shell_exec',
        args: { command },
        commandArg: 'command',
        home,
        parsed: null,
      });
    expect(reasonOf(decide('rm -rf /'))).toBe(
      'dangerous shell: recursive delete of / or a home or system tree',
    );
    expect(decide('ls ~/project')).toEqual({ blocked: false, signals: [] });
  });

  it('a denial keeps the signals other than a mention (a line that did not parse)', () => {
    const result = guardCall({
      executor: 'shell_exec',
      args: { command: 'echo ~/.ssh/id_rsa; cat /etc/shadow; if' },
      commandArg: 'command',
      home,
    });
    expect(result).toMatchObject({
      blocked: true,
      signals: ['forbidden path', 'shell did not parse'],
    });
  });

  it('a command line nested below the top level is scanned as text, not parsed', () => {
    const result = guardCall({
      executor: 'shell_exec',
      args: { options: { command: 'rm -rf /' } },
      commandArg: 'command',
      home,
    });
    expect(result).toEqual({ blocked: false, signals: [] });
  });
});
