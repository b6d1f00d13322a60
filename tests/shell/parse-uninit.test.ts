// Its own file (its own process): the parser is never initialised here.
import { describe, expect, it } from 'vitest';
import { parseShell } from '../../runtime/shell/parse.ts';
import { guardCall } from '../../runtime/vaglio/guard.ts';

describe('before initShellParser()', () => {
  it('parseShell throws an error that names the fix', () => {
    expect(() => parseShell('ls')).toThrow(/await initShellParser\(\)/);
  });

  it('the guard fails closed on a shell call', () => {
    const result = guardCall({
      executor: 'shell_exec',
      args: { command: 'ls' },
      commandArg: 'command',
      home: '/home/ada',
    });
    expect(result).toEqual({ blocked: true, reason: 'guard error', signals: ['guard error'] });
  });

  it('the guard still judges calls that carry no shell', () => {
    expect(
      guardCall({ executor: 'fs_read', args: { path: 'notes.txt' }, home: '/home/ada' }).blocked,
    ).toBe(false);
  });
});
